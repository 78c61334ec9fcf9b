import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { dirHash } from '../electron/git-store';
import { FlockLocks, HermesCheckpoints } from '../electron/hermes';
import { hermesGit, hermesSharedCheckpoint } from '../electron/hermes/test-support/hermes-fixtures';
import { silentLogger } from '../electron/logging';
import { FileLock } from '../electron/locks';
import { loadMemoryService, memoryDirectoryId } from '../electron/memory';
import {
  formatMs,
  formatRatio,
  measure,
  summarize,
  type BenchArea,
  type BenchContext,
  type BenchTable,
  type Timing,
} from './harness';

/**
 * Hermes Agent support: (1) the cost of flocking Hermes's `MEMORY.md.lock` through a helper
 * process, against Vigil's own lock file and against starting a process per lock; (2) reading a
 * Hermes store's timeline, cold and cached, against the git commands Hermes's `/rollback` runs.
 */

async function flockTable(context: BenchContext, runs: number): Promise<BenchTable> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-flock-'));
  try {
    const lockPath = path.join(base, 'MEMORY.md.lock');
    const rows: string[][] = [];
    const vigilLock = new FileLock({ path: path.join(base, '.MEMORY.md.vigil-lock'), resource: 'bench' });
    const vigil = await measure(
      runs,
      () => undefined,
      () => vigilLock.withLock(() => Promise.resolve()),
    );
    rows.push(["Vigil's own lock file (O_EXCL create + unlink)", formatMs(vigil.median), formatMs(vigil.p99), '1.00×']);
    for (const kind of ['perl', 'flock'] as const) {
      const locks = new FlockLocks({ kinds: [kind] });
      if ((await locks.program()) === undefined) continue;
      const first = await measure(
        Math.min(runs, 10),
        async () => locks.dispose(),
        async () => (await locks.acquire(lockPath, { timeoutMs: 10_000 })).release(),
      );
      const warm = await measure(
        runs,
        () => undefined,
        async () => (await locks.acquire(lockPath, { timeoutMs: 10_000 })).release(),
      );
      await locks.dispose();
      rows.push([
        `flock via ${kind} helper, helper already running (LOCK/UNLOCK round trip)`,
        formatMs(warm.median),
        formatMs(warm.p99),
        formatRatio(warm.median, vigil.median),
      ]);
      rows.push([
        `flock via ${kind} helper, first lock (starts the helper)`,
        formatMs(first.median),
        formatMs(first.p99),
        formatRatio(first.median, vigil.median),
      ]);
      context.log(`flock ${kind}: warm ${formatMs(warm.median)}, first ${formatMs(first.median)}`);
    }
    const spawned = await measure(
      Math.min(runs, 20),
      () => undefined,
      () => spawnSync('flock', ['-x', lockPath, 'true']),
    );
    rows.push([
      'a new `flock -x FILE true` process per lock (the alternative)',
      formatMs(spawned.median),
      formatMs(spawned.p99),
      formatRatio(spawned.median, vigil.median),
    ]);
    return {
      caption: 'Taking and releasing a memory lock (median and p99 of the runs)',
      columns: ['Lock', 'Median', 'p99', 'vs Vigil lock'],
      rows,
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

async function memoryTable(context: BenchContext, runs: number): Promise<BenchTable> {
  const sources = ['config', 'hermes'] as const;
  const dirs = sources.map(() => mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-memory-')));
  const { createMemoryService } = await loadMemoryService();
  try {
    const services = await Promise.all(
      sources.map((source, index) => {
        const dir = dirs[index] ?? '';
        return createMemoryService({
          directories: [
            {
              id: memoryDirectoryId(dir),
              path: dir,
              label: 'bench',
              source,
              limits: { memory: 1_000_000, user: 1_000_000 },
            },
          ],
          logger: silentLogger,
        });
      }),
    );
    const samples: number[][] = sources.map(() => []);
    // Interleaved, so that the machine's drift (other engineers' work, page cache) hits both alike.
    for (let run = -1; run < runs; run += 1) {
      for (const [index, memory] of services.entries()) {
        const start = performance.now();
        await memory.mutate(dirs[index] ?? '', 'memory', { action: 'add', content: `entry ${run}` });
        if (run >= 0) samples[index]?.push(performance.now() - start);
      }
    }
    await Promise.all(services.map((memory) => memory.dispose()));
    const [vigil, hermes] = samples.map((list) => summarize(list));
    if (vigil === undefined || hermes === undefined) throw new Error('no samples');
    context.log(`memory add: Vigil folder ${formatMs(vigil.median)}, Hermes folder ${formatMs(hermes.median)}`);
    return {
      caption: 'A whole memory `add` (re-read, drift check, atomic write with fsync), no checkpoints, runs interleaved',
      columns: ['Folder', 'Median', 'p99', 'vs Vigil folder'],
      rows: [
        ["a Vigil folder: Vigil's lock only", formatMs(vigil.median), formatMs(vigil.p99), '1.00×'],
        [
          "Hermes's folder: Vigil's lock + Hermes's flock",
          formatMs(hermes.median),
          formatMs(hermes.p99),
          formatRatio(hermes.median, vigil.median),
        ],
      ],
    };
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `count` Hermes checkpoints of one 200-file project into a shared store, then packs it with `git gc`. */
function seedHermesTimeline(base: string, count: number): { home: string; project: string; store: string } {
  const home = path.join(base, 'hermes');
  const project = path.join(base, 'project');
  mkdirSync(project);
  for (let index = 0; index < 200; index += 1) writeFileSync(path.join(project, `f${index}.py`), `x = ${index}\n`);
  for (let index = 0; index < count; index += 1) {
    writeFileSync(path.join(project, `f${index % 200}.py`), `x = ${index}\ny = ${index}\n`);
    hermesSharedCheckpoint(home, project, `before write_file (${index})`, { seconds: 1_700_000_000 + index * 60 });
  }
  const store = path.join(home, 'checkpoints', 'store');
  hermesGit(['--git-dir', store, 'gc', '--quiet']);
  return { home, project, store };
}

/** Vigil's timeline with stats, read by a fresh reader each run (cold) and by one reader again and again (cached). */
async function measureVigilTimeline(
  home: string,
  project: string,
  runs: number,
): Promise<{ cold: Timing; warm: Timing }> {
  const env = { HERMES_HOME: home };
  const cold = await measure(
    runs,
    () => new HermesCheckpoints({ env, logger: silentLogger }),
    async (hermes) => {
      const entries = await hermes.entries(project);
      await Promise.all(entries.map((entry) => hermes.withStats(entry)));
      await hermes.dispose();
    },
  );
  const warmReader = new HermesCheckpoints({ env, logger: silentLogger });
  await Promise.all((await warmReader.entries(project)).map((entry) => warmReader.withStats(entry)));
  const warm = await measure(
    runs * 5,
    () => undefined,
    async () => {
      const entries = await warmReader.entries(project);
      await Promise.all(entries.map((entry) => warmReader.withStats(entry)));
    },
  );
  await warmReader.dispose();
  return { cold, warm };
}

/** The same listing with git's CLI, as Hermes's /rollback does it: `git log`, then a `git diff --shortstat` each. */
function measureGitTimeline(store: string, project: string, runs: number, count: number): Promise<Timing> {
  const ref = `refs/hermes/${dirHash(project)}`;
  return measure(
    runs,
    () => undefined,
    () => {
      const lines = execFileSync(
        'git',
        ['--git-dir', store, 'log', ref, '--format=%H|%h|%aI|%s', '-n', String(count)],
        { encoding: 'utf8' },
      )
        .trim()
        .split('\n');
      for (const line of lines)
        spawnSync('git', ['--git-dir', store, 'diff', '--shortstat', `${line.slice(0, 40)}~1`, line.slice(0, 40)]);
    },
  );
}

/** One directory's Hermes timeline: Vigil cold and cached against git's CLI. */
async function timelineTable(context: BenchContext, runs: number, count: number): Promise<BenchTable> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-hermes-'));
  try {
    const { home, project, store } = seedHermesTimeline(base, count);
    const { cold, warm } = await measureVigilTimeline(home, project, runs);
    const gitList = await measureGitTimeline(store, project, runs, count);
    context.log(
      `timeline of ${count}: cold ${formatMs(cold.median)}, cached ${formatMs(warm.median)}, git ${formatMs(gitList.median)}`,
    );
    return {
      caption: `Listing one directory's ${count} Hermes checkpoints with change stats (packed store, 200 files)`,
      columns: ['How', 'Median', 'p99', 'vs git'],
      rows: [
        [
          "git's CLI as Hermes's /rollback does it (`git log` + one `git diff --shortstat` per checkpoint)",
          formatMs(gitList.median),
          formatMs(gitList.p99),
          '1.00×',
        ],
        [
          'Vigil, cold (open the store, walk the chain, compute every stat)',
          formatMs(cold.median),
          formatMs(cold.p99),
          formatRatio(cold.median, gitList.median),
        ],
        [
          'Vigil, cached (no head moved: a few small reads)',
          formatMs(warm.median),
          formatMs(warm.p99),
          formatRatio(warm.median, gitList.median),
        ],
      ],
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** The Hermes area of `npm run bench`. */
export const run: BenchArea = async (context) => {
  const runs = context.isQuick ? 5 : 50;
  return {
    title: 'Hermes Agent: its memory lock and its checkpoint stores',
    method: [
      "Memory: Vigil flocks Hermes's `MEMORY.md.lock` through a helper process that stays up between locks (Node has no flock(2));",
      "the table sets one LOCK/UNLOCK round trip against Vigil's own lock file and against starting a `flock` process per lock,",
      "and a whole memory `add` in Hermes's folder (both locks) against one in a Vigil folder (Vigil's lock only).",
      "Checkpoints: one directory's Hermes timeline read from a gc-packed shared store, cold and cached, against the git commands",
      "Hermes's own `/rollback` list runs. Medians of several runs on a shared 2-core machine: expect noise of ±30%.",
    ].join(' '),
    tables: [
      await flockTable(context, runs),
      await memoryTable(context, context.isQuick ? 5 : 30),
      await timelineTable(context, context.isQuick ? 2 : 5, context.isQuick ? 10 : 50),
    ],
  };
};
