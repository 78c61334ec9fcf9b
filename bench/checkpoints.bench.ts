import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import { loadCheckpointService, measureStore } from '../electron/checkpoints';
import { dirHash } from '../electron/git-store';
import type { CheckpointService, CheckpointServiceOptions } from '../electron/checkpoints';
import { silentLogger } from '../electron/logging';
import { formatBytes } from '../shared/text/format-bytes';
import { formatMs, formatRatio, summarize, type BenchArea, type BenchContext, type BenchTable } from './harness';
import { gitEnv } from './git-env';

const { CheckpointService: CheckpointEngine } = await loadCheckpointService();

/**
 * Snapshots side by side with git's CLI on the same generated trees, in the same run: Vigil's
 * checkpoint against `git --git-dir=S --work-tree=D add -A && git commit` on a shadow git dir
 * (auto-gc off, so a detached gc does not run into the next measurement).
 */

function git(args: readonly string[]): string {
  return execFileSync('git', ['-c', 'gc.auto=0', ...args], {
    env: gitEnv,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

/** git's snapshot of D into the shadow store S, timed: `add -A` then `commit`. */
function gitSnapshot(store: string, dir: string, message: string): number {
  const start = performance.now();
  git(['--git-dir', store, '--work-tree', dir, 'add', '-A']);
  git(['--git-dir', store, '--work-tree', dir, 'commit', '-q', '--allow-empty', '-m', message]);
  return performance.now() - start;
}

/** The content of generated file `index` at `version`: 30–550 bytes of text. */
function content(index: number, version: number): string {
  const size = 30 + ((index * 7919) % 520);
  const line = `file ${index} version ${version} `;
  return `${line.repeat(Math.ceil(size / line.length)).slice(0, size - 1)}\n`;
}

/** A generated project: 50 files per leaf folder, 10 leaf folders per top folder. */
function generate(dir: string, count: number): string[] {
  const files: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const file = `t${Math.floor(index / 500)}/l${Math.floor(index / 50) % 10}/f${index}.txt`;
    if (index % 50 === 0) mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content(index, 0));
    files.push(file);
  }
  return files;
}

function service(root: string, options: Partial<CheckpointServiceOptions> = {}): CheckpointService {
  return new CheckpointEngine({
    root,
    logger: silentLogger,
    refusedDirs: [],
    watch: true,
    maintenance: false,
    ...options,
  });
}

/** Disk use of a git directory's objects (blocks, as `du` counts them). */
function diskUse(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const info = statSync(path.join(entry.parentPath, entry.name));
    total += info.blocks * 512;
  }
  return total;
}

interface SizeResult {
  readonly size: number;
  readonly rows: string[][];
  readonly lagMs?: { readonly max: number; readonly p99: number; readonly idleMax: number; readonly idleP99: number };
  readonly oneFileRatio: number;
  readonly firstRatio: number;
}

type Lag = { max: number; p99: number; idleMax: number; idleP99: number };

/** The first-snapshot runs of one tree size; the last run's service stays open for the change runs. */
interface FirstSnapshots {
  readonly vigil: number[];
  readonly git: number[];
  readonly lag: Lag | undefined;
  readonly live: CheckpointService;
  readonly runs: number;
}

/** The event-loop delay seen during a snapshot, beside the same measure over an idle stretch right after. */
async function measureLag(during: IntervalHistogram, snapshotMs: number): Promise<Lag> {
  // The same measure over an idle stretch right after: on a shared machine, scheduling alone shows up as lag.
  const idle = monitorEventLoopDelay({ resolution: 5 });
  idle.enable();
  await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, snapshotMs)));
  idle.disable();
  return {
    max: during.max / 1e6,
    p99: during.percentile(99) / 1e6,
    idleMax: idle.max / 1e6,
    idleP99: idle.percentile(99) / 1e6,
  };
}

/** First snapshot of `dir` into fresh stores, Vigil then git, a few times. */
async function measureFirstSnapshots(
  base: string,
  dir: string,
  gitStore: string,
  size: number,
  context: BenchContext,
): Promise<FirstSnapshots> {
  const firstRuns = size <= 10_000 ? 3 : size <= 50_000 ? 2 : 1;
  const vigilFirst: number[] = [];
  const gitFirst: number[] = [];
  let lag: Lag | undefined;
  let live: CheckpointService | undefined;
  for (let run = 0; run < firstRuns; run += 1) {
    await live?.dispose();
    const root = path.join(base, `vigil-${size}-${run}`);
    live = service(root);
    // The store is created before timing, as `git init` is for git.
    await live.directories();
    const histogram = monitorEventLoopDelay({ resolution: 5 });
    histogram.enable();
    const start = performance.now();
    await live.checkpoint(dir, { reason: 'before write_file' });
    vigilFirst.push(performance.now() - start);
    histogram.disable();
    if (size === 50_000 && run === 0) lag = await measureLag(histogram, vigilFirst[0] ?? 0);
    rmSync(gitStore, { recursive: true, force: true });
    git(['init', '--quiet', '--bare', gitStore]);
    gitFirst.push(gitSnapshot(gitStore, dir, 'first'));
    if (run < firstRuns - 1) rmSync(root, { recursive: true, force: true });
    context.log(
      `first snapshot ${size}: vigil ${formatMs(vigilFirst.at(-1) ?? 0)}, git ${formatMs(gitFirst.at(-1) ?? 0)}`,
    );
  }
  return { vigil: vigilFirst, git: gitFirst, lag, live: live as CheckpointService, runs: firstRuns };
}

/** The tree being snapshotted, with the stores that snapshot it. */
interface ChangeTarget {
  readonly dir: string;
  readonly files: readonly string[];
  readonly gitStore: string;
  readonly checkpoints: CheckpointService;
  readonly size: number;
}

/** Medians of Vigil and git snapshotting after `changed` files change, over `runs` runs. */
async function measureChanges(
  tree: ChangeTarget,
  changed: number,
  runs: number,
  label: string,
  context: BenchContext,
): Promise<[number, number]> {
  const { dir, files, gitStore, checkpoints, size } = tree;
  const vigil: number[] = [];
  const gitTimes: number[] = [];
  for (let run = 1; run <= runs; run += 1) {
    const step = Math.max(1, Math.floor(files.length / changed));
    for (let index = 0; index < changed; index += 1) {
      const target = (index * step + run * 13) % files.length;
      writeFileSync(path.join(dir, files[target] ?? ''), content(target, run + changed));
    }
    const start = performance.now();
    await checkpoints.checkpoint(dir, { reason: 'before patch' });
    vigil.push(performance.now() - start);
    gitTimes.push(gitSnapshot(gitStore, dir, `run ${run}`));
  }
  const result: [number, number] = [summarize(vigil).median, summarize(gitTimes).median];
  context.log(`${label} ${size}: vigil ${formatMs(result[0])}, git ${formatMs(result[1])}`);
  return result;
}

/** The one-shot CLI path (no watcher: the stat cache and a walk of the tree), for comparison. */
async function measureOneShot(dir: string, files: readonly string[], root: string): Promise<number> {
  const oneShot: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    writeFileSync(path.join(dir, files[run] ?? ''), content(run, 1000 + run));
    const cli = service(root, { watch: false });
    const start = performance.now();
    await cli.checkpoint(dir, { reason: 'manual checkpoint' });
    oneShot.push(performance.now() - start);
    await cli.dispose();
  }
  return summarize(oneShot).median;
}

/** One table row: an operation's Vigil and git times and their ratio. */
function ratioRow(tree: string, operation: string, vigil: number, gitMs: number): string[] {
  return [tree, operation, formatMs(vigil), formatMs(gitMs), formatRatio(vigil, gitMs)];
}

/** First snapshot, 1 and 100 changed files, at one tree size. */
async function measureSize(base: string, size: number, context: BenchContext): Promise<SizeResult> {
  const dir = path.join(base, `tree-${size}`);
  mkdirSync(dir);
  context.log(`generating ${size} files`);
  const files = generate(dir, size);
  const gitStore = path.join(base, `git-${size}`);
  const firstSnapshots = await measureFirstSnapshots(base, dir, gitStore, size, context);
  const checkpoints = firstSnapshots.live;
  const target: ChangeTarget = { dir, files, gitStore, checkpoints, size };
  const [oneVigil, oneGit] = await measureChanges(target, 1, 7, '1 changed file', context);
  const [hundredVigil, hundredGit] = await measureChanges(target, 100, 5, '100 changed files', context);
  await checkpoints.dispose();
  const oneShot = await measureOneShot(dir, files, path.join(base, `vigil-${size}-${firstSnapshots.runs - 1}`));
  const first = [summarize(firstSnapshots.vigil).median, summarize(firstSnapshots.git).median] as const;
  const rows = [
    ratioRow(`${size.toLocaleString('en')} files`, 'first snapshot', first[0], first[1]),
    ratioRow('', '1 changed file (app: watcher + stat cache)', oneVigil, oneGit),
    ratioRow('', '100 changed files (app)', hundredVigil, hundredGit),
    ratioRow('', '1 changed file, one-shot CLI process (stat walk)', oneShot, oneGit),
  ];
  rmSync(dir, { recursive: true, force: true });
  rmSync(gitStore, { recursive: true, force: true });
  return {
    size,
    rows,
    lagMs: firstSnapshots.lag,
    oneFileRatio: oneVigil / oneGit,
    firstRatio: first[0] / first[1],
  };
}

/** Store size after 100 snapshots of a 10k-file tree (5 files changed each time), against git gc. */
async function measureStoreSize(base: string, context: BenchContext): Promise<string[][]> {
  const dir = path.join(base, 'size-tree');
  mkdirSync(dir);
  const files = generate(dir, 10_000);
  const gitStore = path.join(base, 'size-git');
  git(['init', '--quiet', '--bare', gitStore]);
  const checkpoints = service(path.join(base, 'size-vigil'), { retention: { maxSnapshots: 1_000 } });
  for (let round = 0; round < 100; round += 1) {
    for (let index = 0; index < 5; index += 1) {
      const target = (round * 97 + index * 1999) % files.length;
      writeFileSync(path.join(dir, files[target] ?? ''), content(target, round + 1));
    }
    await checkpoints.checkpoint(dir, { reason: 'before write_file' });
    gitSnapshot(gitStore, dir, `round ${round}`);
  }
  const vigilBefore = (await measureStore(path.join(checkpoints.gitdir, 'objects'))).bytes;
  await checkpoints.prune();
  const vigilAfter = (await measureStore(path.join(checkpoints.gitdir, 'objects'))).bytes;
  const count = await checkpoints.count(dir);
  await checkpoints.dispose();
  const gitBefore = diskUse(path.join(gitStore, 'objects'));
  git(['--git-dir', gitStore, 'gc', '--quiet']);
  const gitAfter = diskUse(path.join(gitStore, 'objects'));
  context.log(
    `store after 100 snapshots: vigil ${formatBytes(vigilAfter)} (${count} kept), git gc ${formatBytes(gitAfter)}`,
  );
  rmSync(dir, { recursive: true, force: true });
  return [
    [
      'as written (loose objects and packs)',
      formatBytes(vigilBefore),
      formatBytes(gitBefore),
      formatRatio(vigilBefore, gitBefore),
    ],
    [
      'after `vigil checkpoints prune` / `git gc`',
      formatBytes(vigilAfter),
      formatBytes(gitAfter),
      formatRatio(vigilAfter, gitAfter),
    ],
  ];
}

/** Listing 1,000 checkpoints of one directory, against `git log` of the same commits. */
async function measureListing(base: string, context: BenchContext, count: number): Promise<string[][]> {
  const dir = path.join(base, 'list-tree');
  mkdirSync(dir);
  generate(dir, 100);
  const root = path.join(base, 'list-vigil');
  const writer = service(root, { retention: { maxSnapshots: count + 10 } });
  for (let index = 0; index < count; index += 1) {
    writeFileSync(path.join(dir, 'changing.txt'), `version ${index}\n`);
    await writer.checkpoint(dir, {
      reason: 'before write_file',
      attribution: { sessionId: 'bench', turn: index, tool: 'write_file' },
    });
  }
  await writer.dispose();
  context.log(`listing ${count} checkpoints`);
  const cold: number[] = [];
  const warm: number[] = [];
  const gitTimes: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const reader = service(root, { watch: false });
    let start = performance.now();
    const listed = await reader.list(dir, { limit: count });
    cold.push(performance.now() - start);
    if (listed.length !== count) throw new Error(`listed ${listed.length} of ${count}`);
    start = performance.now();
    await reader.list(dir, { limit: count });
    warm.push(performance.now() - start);
    await reader.dispose();
    start = performance.now();
    git([
      '--git-dir',
      path.join(root, 'store'),
      'log',
      '--format=%H %ct %s %(trailers:only,unfold)',
      `refs/vigil/${dirHash(dir)}`,
    ]);
    gitTimes.push(performance.now() - start);
  }
  const gitMedian = summarize(gitTimes).median;
  return [
    [
      `${count} checkpoints, first listing in a process`,
      formatMs(summarize(cold).median),
      formatMs(gitMedian),
      formatRatio(summarize(cold).median, gitMedian),
    ],
    [
      `${count} checkpoints, listed again`,
      formatMs(summarize(warm).median),
      formatMs(gitMedian),
      formatRatio(summarize(warm).median, gitMedian),
    ],
  ];
}

/** `npm run bench -- checkpoints`. */
export const run: BenchArea = async (context) => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-cp-'));
  try {
    const sizes = context.isQuick ? [1_000, 10_000] : [1_000, 10_000, 50_000, 200_000];
    const results: SizeResult[] = [];
    for (const size of sizes) results.push(await measureSize(base, size, context));
    const snapshotTable: BenchTable = {
      caption: 'Snapshots: Vigil vs `git add -A && git commit` (shadow git dir), medians',
      columns: ['Tree', 'Operation', 'Vigil', 'git CLI', 'Vigil / git'],
      rows: results.flatMap((result) => result.rows),
    };
    const listing: BenchTable = {
      caption: 'Timeline listing vs `git log` of the same commits',
      columns: ['Listing', 'Vigil', 'git log', 'Vigil / git'],
      rows: await measureListing(base, context, context.isQuick ? 100 : 1_000),
    };
    const storeSize: BenchTable = {
      caption: 'Store size after 100 snapshots of a 10,000-file tree (5 files changed each time)',
      columns: ['State', 'Vigil', 'git', 'Vigil / git'],
      rows: context.isQuick ? [] : await measureStoreSize(base, context),
    };
    const at50k = results.find((result) => result.size === 50_000);
    const lagTable: BenchTable = {
      caption: "Main thread's event-loop delay during a 50,000-file first snapshot (monitorEventLoopDelay)",
      columns: ['Stretch', 'max', 'p99'],
      rows:
        at50k?.lagMs === undefined
          ? []
          : [
              ['during the snapshot', formatMs(at50k.lagMs.max), formatMs(at50k.lagMs.p99)],
              ['idle, just after (the machine itself)', formatMs(at50k.lagMs.idleMax), formatMs(at50k.lagMs.idleP99)],
            ],
    };
    const verdicts = [
      at50k === undefined
        ? undefined
        : `1 changed file at 50k files ≤ 0.2× git: ${at50k.oneFileRatio.toFixed(2)}× — ${at50k.oneFileRatio <= 0.2 ? 'met' : 'NOT met'}`,
      ...results.map(
        (result) =>
          `first snapshot at ${result.size.toLocaleString('en')} files ≤ 1.5× git: ${result.firstRatio.toFixed(2)}× — ${result.firstRatio <= 1.5 ? 'met' : 'NOT met'}`,
      ),
      at50k?.lagMs === undefined
        ? undefined
        : `event-loop lag < 50 ms during a 50k first snapshot: max ${formatMs(at50k.lagMs.max)} — ${at50k.lagMs.max < 50 ? 'met' : 'NOT met'}`,
    ].filter((line): line is string => line !== undefined);
    return {
      title: 'Checkpoints: snapshots, listing, store size',
      method: [
        'Generated trees of text files (30–550 bytes, 50 per folder), the same for both tools. Vigil runs as in the app',
        '(a watcher on the directory, the stat cache in memory, hashing in worker threads for big batches); the',
        'one-shot row is a fresh CLI-style process state (stat cache from disk, a stat walk of the whole tree).',
        'git runs `add -A` and `commit` on a shadow git dir with its own index (auto-gc off). Both stores exist before a',
        'first snapshot is timed (`git init`; Vigil opening its store). Runs alternate between',
        'the two tools; medians of 7 (1 file), 5 (100 files), 3/2/1 (first snapshot at ≤10k/50k/200k).',
        'The machine is shared with other work, so absolute times are noisy; the ratios are the figure of merit.',
      ].join('\n'),
      tables: [snapshotTable, listing, storeSize, lagTable],
      verdicts,
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
};
