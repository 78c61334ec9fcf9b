import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadCheckpointService, type CheckpointService } from '../electron/checkpoints';
import { silentLogger } from '../electron/logging';
import { runWatcherDifferential, type DifferentialResult } from '../electron/test-support/watcher-differential';
import { gitEnv } from './git-env';
import { formatMs, formatRatio, measure, type BenchArea, type BenchContext, type BenchTable } from './harness';

/**
 * The watcher is a hint, never the truth (docs/design/watcher-as-hint.md): (1) the long run of the
 * differential test, random file operations against a watching engine with every checkpoint's
 * tree compared with a full walk's (and now and then git's); (2) what the guarantee costs: a
 * checkpoint that finds nothing changed, answered from the watcher after its sync cookie, against
 * one that walks the tree.
 */

const { CheckpointService: CheckpointEngine } = await loadCheckpointService();

/** An engine on its own store: watching (as `vigil serve`) or walking (as `--local`). */
function engine(root: string, isWatching: boolean): CheckpointService {
  return new CheckpointEngine({ root, logger: silentLogger, refusedDirs: [], watch: isWatching, verifyEveryMs: 0 });
}

/** What `git write-tree` makes of `dir`, through a shadow git dir and its own index. */
function gitWriteTree(shadow: string, dir: string): string {
  const env = { ...gitEnv, GIT_DIR: shadow, GIT_WORK_TREE: dir, GIT_INDEX_FILE: path.join(shadow, 'index') };
  const git = (args: readonly string[]): string =>
    execFileSync('git', args, { env, cwd: dir, encoding: 'utf8' }).trim();
  execFileSync('git', ['init', '--quiet', '--bare', shadow], { env: gitEnv });
  git(['add', '-A', '--force', '--', '.']);
  return git(['write-tree']);
}

/** `count` small text files in folders of 50, as the checkpoint benchmarks' trees. */
function generateTree(root: string, count: number): void {
  for (let index = 0; index < count; index += 1) {
    const folder = path.join(root, `d${Math.floor(index / 50)}`);
    if (index % 50 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, `f${index % 50}.txt`), `file ${index}\n${'line\n'.repeat(index % 7)}`);
  }
}

async function differentialTable(context: BenchContext): Promise<{ table: BenchTable; verdict: string }> {
  const seeds = context.isQuick ? [1, 2] : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const opsPerSeed = context.isQuick ? 100 : 1_000;
  const rows: string[][] = [];
  const results: DifferentialResult[] = [];
  const started = performance.now();
  for (const seed of seeds) {
    const base = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-watchdiff-'));
    try {
      const begun = performance.now();
      const result = await runWatcherDifferential({ base, seed, ops: opsPerSeed, gitEvery: 50, engine, gitWriteTree });
      results.push(result);
      const seconds = (performance.now() - begun) / 1000;
      context.log(
        `seed ${seed}: ${result.ops} ops, ${result.checkpoints} checkpoints, ${result.divergence === undefined ? 'no divergence' : `DIVERGED at checkpoint ${result.divergence.checkpoint}`}`,
      );
      if (result.divergence !== undefined) context.log(result.divergence.log.slice(-20).join('\n'));
      rows.push([
        String(seed),
        String(result.ops),
        String(result.checkpoints),
        String(result.gitChecks),
        result.divergence === undefined ? '0' : `1 (checkpoint ${result.divergence.checkpoint})`,
        String(result.missedByWatcher),
        `${seconds.toFixed(0)} s`,
      ]);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }
  const ops = results.reduce((sum, result) => sum + result.ops, 0);
  const divergences = results.filter((result) => result.divergence !== undefined).length;
  const missed = results.reduce((sum, result) => sum + result.missedByWatcher, 0);
  const minutes = (performance.now() - started) / 60_000;
  rows.push([
    'all',
    String(ops),
    String(results.reduce((sum, result) => sum + result.checkpoints, 0)),
    String(results.reduce((sum, result) => sum + result.gitChecks, 0)),
    String(divergences),
    String(missed),
    `${minutes.toFixed(1)} min`,
  ]);
  return {
    table: {
      caption:
        "Differential long run: after every checkpoint, the watching engine's tree against a full walk's (and every 50th, `git write-tree`'s)",
      columns: ['seed', 'operations', 'checkpoints', 'git checks', 'divergences', 'missed (verification walk)', 'time'],
      rows,
    },
    verdict: `Divergences: ${divergences} in ${ops} operations over ${seeds.length} seeds (target 0: ${divergences === 0 && missed === 0 ? 'met' : 'NOT met'}).`,
  };
}

async function costTable(context: BenchContext): Promise<BenchTable> {
  const files = context.isQuick ? 1_000 : 10_000;
  const runs = context.isQuick ? 10 : 20;
  const base = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-watchcost-'));
  const dir = path.join(base, 'work');
  generateTree(dir, files);
  const watched = engine(path.join(base, 'home-watched'), true);
  const walked = engine(path.join(base, 'home-walked'), false);
  try {
    await watched.checkpoint(dir, { reason: 'manual checkpoint' });
    await walked.checkpoint(dir, { reason: 'manual checkpoint' });
    const unchanged = (service: typeof watched) => () => service.checkpoint(dir, { reason: 'manual checkpoint' });
    let edit = 0;
    const edited = (service: typeof watched) => async () => {
      writeFileSync(path.join(dir, 'd0/f0.txt'), `edit ${edit++}\n`);
      await service.checkpoint(dir, { reason: 'manual checkpoint' });
    };
    const idleWatched = await measure(runs, () => undefined, unchanged(watched));
    const idleWalked = await measure(runs, () => undefined, unchanged(walked));
    const editWatched = await measure(runs, () => undefined, edited(watched));
    const editWalked = await measure(runs, () => undefined, edited(walked));
    const verify = await measure(
      Math.min(runs, 10),
      () => undefined,
      () => watched.verifyWatched(dir),
    );
    const row = (what: string, timing: { median: number; p99: number }, baseline: number): string[] => [
      what,
      formatMs(timing.median),
      formatMs(timing.p99),
      formatRatio(timing.median, baseline),
    ];
    return {
      caption: `What the guarantee costs, ${files.toLocaleString('en')} files (in-process engines, medians of ${runs})`,
      columns: ['checkpoint', 'median', 'p99', 'vs walk'],
      rows: [
        row('nothing changed, walked (as `--local`)', idleWalked, idleWalked.median),
        row('nothing changed, watched (sync cookie, then the dirty set)', idleWatched, idleWalked.median),
        row('one file edited, walked', editWalked, editWalked.median),
        row('one file edited, watched', editWatched, editWalked.median),
        row('background verification walk (stats only, no hashing)', verify, idleWalked.median),
      ],
    };
  } finally {
    await watched.dispose();
    await walked.dispose();
    rmSync(base, { recursive: true, force: true });
  }
}

/** The 1-minute load average, one decimal. */
function load(): string {
  return (os.loadavg()[0] ?? 0).toFixed(1);
}

export const run: BenchArea = async (context) => {
  const loadBefore = load();
  const cost = await costTable(context);
  const { table, verdict } = await differentialTable(context);
  const loadAfter = load();
  return {
    title: 'Watcher: a hint, never the truth',
    method: [
      'A resident core answers a checkpoint from its watcher only after a sync cookie written into the folder has come back',
      '(every earlier event delivered) and only for subtrees it has not lost track of. The long run drives random file',
      'operations (writes, same-size overwrites, deletes, `rm -rf` + re-create, `mkdir e && rmdir e && mkdir e`, folders',
      'moved into re-created folders, files moved, chmod, nested creates, symlinks), 1 to 3 between checkpoints, against a',
      'watching engine and a walking one on the same folder; the test in `npm test` is one seed of 500 operations.',
      `Load average (1 min) ${loadBefore} at the start, ${loadAfter} at the end, on a machine shared with other work:`,
      'the times are noisy, the divergence count is not.',
    ].join(' '),
    tables: [cost, table],
    verdicts: [verdict],
  };
};
