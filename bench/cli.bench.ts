import { execFileSync, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatMs, formatRatio, summarize, type BenchArea, type BenchContext, type BenchTable } from './harness';
import { gitEnv } from './git-env';
import { type LoadedFiles, caBundleNote, cli, loadedFiles, root, startServe, vigilBenchEnv } from './vigil-process';

/**
 * Whole `vigil` processes (the built CLI, as a user runs it) side by side with git's CLI on the same
 * generated tree, in the same run: a one-change checkpoint with and without a resident core
 * (`vigil serve`) against `git add -A && git commit`, a 100-file restore by name against
 * `git checkout -- FILES`, and a relayed `vigil checkpoints list` against `node -e 0`.
 */

/** Wall time of one whole process, in milliseconds. */
function timed(command: string, args: readonly string[], env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  execFileSync(command, args, { env, stdio: 'ignore', maxBuffer: 64 * 1024 * 1024 });
  return performance.now() - start;
}

function gitArgs(store: string, dir: string, args: readonly string[]): string[] {
  return ['-c', 'gc.auto=0', '--git-dir', store, '--work-tree', dir, ...args];
}

/** git's one-change checkpoint: `add -A` then `commit`, two processes, timed together. */
function gitCheckpoint(store: string, dir: string): number {
  return (
    timed('git', gitArgs(store, dir, ['add', '-A']), gitEnv) +
    timed('git', gitArgs(store, dir, ['commit', '-q', '--allow-empty', '-m', 'checkpoint']), gitEnv)
  );
}

/** A generated project: 50 files per leaf folder, 10 leaf folders per top folder, 30–550 bytes each. */
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

function content(index: number, version: number): string {
  const line = `file ${index} version ${version} `;
  return `${line.repeat(Math.ceil((30 + ((index * 7919) % 520)) / line.length))}\n`;
}

/** Why a target may be missed: what the profiles (node --cpu-prof of the CLI, the core and the workers) show the time goes to. */
const whyNot = {
  noCore:
    "A one-shot process pays what git does not: node's start-up (the `node -e 0` row), the core's modules (~20 files, zod's schemas built at load; ~45 ms), the" +
    ' store opened and checked (temp sweep, heads; the stat cache read and its checksum) and a hashing worker thread started cold (~40 ms alone, ~55 ms ' +
    'beside the main thread), then the walk: 50,000 lstat calls made through JavaScript in the worker. The walk no longer waits for the core: when no ' +
    'resident core will take the call, the executable takes the store lock, reads the stat cache and starts the worker walking against it ~40 ms after ' +
    'the process starts, while the command and the core load; the engine adopts that walk (same directory, store, ignored folders and file size cap, ' +
    'the lock held since). Measured timeline (instrumented, new store, load ~2-3): worker started at ~40 ms, running at ~80 ms, walking at ~85-90 ms, core ready at ~160 ms, ' +
    'walk done at ~325 ms, exit at ~370 ms (before this round: running at ~85-90, walking at ~95-105, walk done at ~340, exit at ~395). A bare loop of readdir and lstat in a fresh thread takes ~170-200 ms here, ~100-120 ms of it in the kernel (git add -A ' +
    "spends ~90 ms of system time on the same calls, and its preloaded index spreads them over the cores); node's BigIntStats, needed for the nanosecond mtime and ctime the racy rule compares, builds four " +
    'Dates and a dozen BigInts per call, and in a fresh thread the loop runs unoptimised at first (~200 ms of user CPU cold, ~100 ms warm); the walk ' +
    'itself (exclusions, the comparison with the cache) is ~205 ms cold in a fresh process, ~250 ms of CPU with GC (~270 when a listing of every folder was built before the comparison). The bare loop ' +
    'split over two threads was ~25% faster on an idle host and slower on a busy one, and two workers in the real process changed nothing (431 vs 432 ms, quiet host; ' +
    'with the early start, 477 vs 434 ms on a lightly loaded one), so a one-shot process starts one per idle core (by the load average). After the walk ' +
    '~45–55 ms: the changed file hashed, ~5 loose objects, the commit and its ref, the retention check (its commits read into memory during the walk) with the stat cache saved beside it (~3 MB, ~15 ms), and the ' +
    "maintenance check (the store's folders listed, ~5-7 ms). So node's start, the worker's start and the walk alone come to ~300 ms against git's ~150–190 ms for add+commit on a quiet machine, " +
    "and on a shared 2-core machine the wall-time ratio follows the CPU ratio. Already off the path: the worker's modules are a chunk of their own (not " +
    "the core's 440 KB, nor the CLI's relay client, nor zlib: 32 KB), listings stay in the worker (each folder is compared with the stat cache there, entry by entry as its files are lstat'ed, the cache's names kept as one text; a listing is built only for a folder that differs, and only that is handed over), the walk " +
    "starts on the cache's bytes before they are decoded, the cache is decoded folder by folder on first use and saved by copying the untouched " +
    "folders' columns back under the checkpoint's own lock hold, the walk reads a file's type bits from one number per lstat, and only files whose " +
    'stat changed are read.',
  restore:
    "git checkout writes 100 files and is done (no fsync); the restore is one relayed call (its answer carries the undo number), and the core's part " +
    'of it is ~110-155 ms of wall per restore (medians of 24-30 alternating restores timed inside the core, quiet to loaded machine; ~130-190 ms before the trees and the scope check below were cut), ' +
    "its main thread busy about two thirds of it and waiting on the hashing worker and node's pool the rest, against git's whole ~70-105 ms. " +
    'In order: a durable pre-rollback snapshot (~30 ms: the 100 named files looked at (~4 ms) and hashed in a worker into one fsynced blob pack (~8-12 ms, ' +
    "the main thread meanwhile reading the checkpoint's versions of the named files (kept for the writes, up to 64 MiB) and listing their folders for dead writers' temp files, " +
    'which the writes then neither read nor list again), then 201 trees built (a folder with the names, modes and order of its last build has only its new ids ' +
    'patched into a copy of its last encoding: ~2 ms for 101 folders of 100 files, ~6 ms encoded whole) and written uncompressed, zlib stored blocks built in place ' +
    '(deflating them at level 1 cost ~9 ms more; the next collection compresses them), as a second fsynced pack (~2-4 ms), change stats, a commit and the ref, both ' +
    'fsynced (~4 ms)), a plan against it (~6-9 ms: trees kept decoded; the write ledger reads only lines appended since), the writes with the folder fsyncs (~47-80 ms: each file checked ' +
    'against the snapshot (by its stat record where its racy rule trusts it, else read again: files damaged just before are), ' +
    'its folder checked canonical, a temp file written, chmodded and fsynced, the target checked unchanged, renamed; about a dozen fs calls per file through ' +
    "node's pool, the stale temp files found before swept; one fsync per folder, each started once its folder's writes are done), a read-back of every file against the " +
    'checkpoint (~7-9 ms) and a check of the scope (~1-3 ms: a named file the read-back just proved is only looked at again with one lstat, compared with what was read back, and its folder checked for a symlink on its way, one realpath per folder; ' +
    'named folders, and whole-directory restores, are compared with the checkpoint again as before). A bare loop of the same ' +
    'per-file calls (lstat, read, temp write+fsync, rename) and folder fsyncs takes 25-45 ms here; in a profile each call through the pool costs the main thread ~15-30 µs ' +
    "(on 2 cores its wake of a pool thread often preempts it), ~2,300 calls a restore, and every promise pays async_hooks (the file locks' AsyncLocalStorage turns on " +
    "promise hooks: a loop of lstat, open, read and close takes ~2x the CPU under it; ~5-7 ms of hook frames in the restore's profile). Each restore adds two packs, so every few restores the core's background maintenance collects the store into one pack (~0.9 s " +
    "at 50,000 files, the old packs read in 4 MB windows); it gives way, changing nothing, when other work of the core waits for the store lock (a restore, a checkpoint; at most five times in a row, never over the size cap or 4x past its limits). Besides all this, node's start-up (the `node -e 0` row) and the CLI's own ~30 ms (loading, the relay, printing).",
  list: (nodeStart: number): string =>
    `node -e 0 alone took ${formatMs(nodeStart)} in this run; the relayed list adds ~20 small modules, one loopback HTTP call and the core's answer on top, so on a loaded machine no node process meets 150 ms.`,
};

/** Runs each measure in turn, run by run, so the shared machine's noise hits all alike; each one's median. */
function alternateAll(runs: number, prepare: (run: number) => void, measures: readonly (() => number)[]): number[] {
  const samples = measures.map((): number[] => []);
  for (let run = 0; run < runs; run += 1) {
    measures.forEach((measure, index) => {
      prepare(run * measures.length + index);
      samples[index]?.push(measure());
    });
  }
  return samples.map((times) => summarize(times).median);
}

/** Runs each pair alternately, run by run, so the shared machine's noise hits both alike; medians. */
function alternate(
  runs: number,
  prepare: (run: number) => void,
  first: () => number,
  second: () => number,
): { readonly first: number; readonly second: number } {
  const [a = Number.NaN, b = Number.NaN] = alternateAll(runs, prepare, [first, second]);
  return { first: a, second: b };
}

/** The generated project, its shadow git store, and the environment every `vigil` process runs in. */
interface Project {
  readonly dir: string;
  readonly files: readonly string[];
  readonly store: string;
  readonly env: NodeJS.ProcessEnv;
}

/** Medians of one alternating pair: git (`first`) and Vigil (`second`). */
type Pair = ReturnType<typeof alternate>;

/** Generates the tree and checkpoints it once with each tool, untimed. */
function generateProject(base: string, count: number, env: NodeJS.ProcessEnv, context: BenchContext): Project {
  const dir = path.join(base, 'project');
  context.log(`generating ${count} files`);
  const files = generate(dir, count);
  const store = path.join(base, 'git-shadow');
  execFileSync('git', ['init', '--bare', '--quiet', store], { env: gitEnv });
  gitCheckpoint(store, dir);
  timed(process.execPath, [cli, 'checkpoint', dir], env);
  return { dir, files, store, env };
}

/** Changes one file of the project. */
function edit(project: Project, run: number): void {
  writeFileSync(path.join(project.dir, project.files[run % project.files.length] ?? ''), content(run, run + 1));
}

/** One whole `vigil checkpoint DIR` process. */
function vigilCheckpoint(project: Project): number {
  return timed(process.execPath, [cli, 'checkpoint', project.dir], project.env);
}

/** One change checkpointed by Vigil then git, untimed, so both start the next measurement from the same state. */
function checkpointChange(project: Project, run: number): void {
  edit(project, run);
  vigilCheckpoint(project);
  gitCheckpoint(project.store, project.dir);
}

/** One-change checkpoints: `git add -A && git commit` and `vigil checkpoint`, alternately. */
function measureCheckpoints(project: Project, runs: number): Pair {
  return alternate(
    runs,
    (run) => edit(project, run),
    () => gitCheckpoint(project.store, project.dir),
    () => vigilCheckpoint(project),
  );
}

/**
 * One-change checkpoints relayed to the background core that the first command started (its
 * start and the core's first walk untimed), alternately with `node -e 0`; the core is stopped after.
 */
function measureAutoStarted(project: Project, runs: number): Pair {
  const env = { ...project.env, VIGIL_NO_CORE: '0' };
  const withAutoStart: Project = { ...project, env };
  try {
    checkpointChange(withAutoStart, 29_999);
    checkpointChange(withAutoStart, 29_998);
    return alternate(
      runs,
      (run) => edit(project, run),
      () => timed(process.execPath, ['-e', '0'], project.env),
      () => vigilCheckpoint(withAutoStart),
    );
  } finally {
    timed(process.execPath, [cli, 'core', 'stop'], env);
  }
}

/** The bare durable restore that the restore row is set beside (see the script's header). */
const restoreFloorScript = path.join(root, 'bench', 'durable-restore-floor.mjs');

/** A 100-file restore by name's medians: git checkout, Vigil's restore, and the bare durable floor. */
interface RestoreTimes extends Pair {
  readonly floor: number;
}

/**
 * A 100-file restore by name: `git checkout -- FILES`, `vigil checkpoints restore DIR 1 FILES` and
 * the floor script on the same files, in turn, the files damaged before each.
 */
function measureRestore(project: Project, runs: number): RestoreTimes {
  const { dir, files, store, env } = project;
  const hundred = files.filter((_file, index) => index % Math.floor(files.length / 100) === 0).slice(0, 100);
  const damage = (run: number): void => {
    for (const file of hundred) writeFileSync(path.join(dir, file), `damaged ${run}\n`);
  };
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-floor-'));
  checkpointChange(project, 19_999);
  try {
    const [git = Number.NaN, vigil = Number.NaN, floor = Number.NaN] = alternateAll(runs, damage, [
      () => timed('git', gitArgs(store, dir, ['checkout', '--', ...hundred]), gitEnv),
      () => timed(process.execPath, [cli, 'checkpoints', 'restore', dir, '1', ...hundred], env),
      () => timed(process.execPath, [restoreFloorScript, scratch, dir, ...hundred], env),
    ]);
    return { first: git, second: vigil, floor };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Run by run: bare node start-up, `vigil --version`, and a relayed `vigil checkpoints list DIR`. */
function measureList(
  project: Project,
  listRuns: number,
): { readonly list: number[]; readonly node: number[]; readonly version: number[] } {
  const { dir, env } = project;
  const list: number[] = [];
  const node: number[] = [];
  const version: number[] = [];
  for (let run = 0; run < listRuns; run += 1) {
    node.push(timed(process.execPath, ['-e', '0'], env));
    version.push(timed(process.execPath, [cli, '--version'], env));
    list.push(timed(process.execPath, [cli, 'checkpoints', 'list', dir], env));
  }
  return { list, node, version };
}

/** Every measured median of one tree size. */
interface CliResults {
  readonly noCore: Pair;
  /** `node -e 0` (`first`) and a one-change checkpoint relayed to the background core a first call started (`second`). */
  readonly autoStarted: Pair;
  readonly withCore: Pair;
  readonly restore: RestoreTimes;
  readonly listMedian: number;
  readonly nodeMedian: number;
  readonly versionMedian: number;
}

/** The table's rows: each case, its same-run baseline, the ratio and the target. */
function cliRows(label: string, results: CliResults): string[][] {
  const { noCore, autoStarted, withCore, restore, listMedian, nodeMedian, versionMedian } = results;
  return [
    [
      `One-change \`vigil checkpoint\`, after a first call that started the background core (${label})`,
      formatMs(autoStarted.second),
      `node -e 0: ${formatMs(autoStarted.first)}`,
      formatRatio(autoStarted.second, autoStarted.first),
      '≤ node -e 0 + 20 ms',
    ],
    [
      `One-change \`vigil checkpoint\`, resident core (${label})`,
      formatMs(withCore.second),
      `git add -A && git commit: ${formatMs(withCore.first)}`,
      formatRatio(withCore.second, withCore.first),
      '≤ 0.5×',
    ],
    [
      `One-change \`vigil checkpoint\`, no core (${label})`,
      formatMs(noCore.second),
      `git add -A && git commit: ${formatMs(noCore.first)}`,
      formatRatio(noCore.second, noCore.first),
      '≤ 2×',
    ],
    [
      `100-file \`vigil checkpoints restore DIR 1 FILE…\`, resident core (${label})`,
      formatMs(restore.second),
      `git checkout -- FILE…: ${formatMs(restore.first)}`,
      formatRatio(restore.second, restore.first),
      '≤ 1.5×',
    ],
    [
      `The floor of a durable 100-file restore: bench/durable-restore-floor.mjs, a bare node process (${label})`,
      formatMs(restore.floor),
      `git checkout -- FILE…: ${formatMs(restore.first)}`,
      formatRatio(restore.floor, restore.first),
      '(reference)',
    ],
    [
      `Relayed \`vigil checkpoints list DIR\` (${label})`,
      formatMs(listMedian),
      `node -e 0: ${formatMs(nodeMedian)}`,
      formatRatio(listMedian, nodeMedian),
      '≤ 150 ms',
    ],
    [
      '`vigil --version`',
      formatMs(versionMedian),
      `node -e 0: ${formatMs(nodeMedian)}`,
      formatRatio(versionMedian, nodeMedian),
      '',
    ],
  ];
}

/** Checkpoints with and without a resident core, a restore, and the relayed list, at one tree size. */
async function measure(
  count: number,
  runs: number,
  context: BenchContext,
): Promise<{
  readonly table: BenchTable;
  readonly verdicts: string[];
  readonly imports: LoadedFiles;
}> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-cli-'));
  const env = vigilBenchEnv(base);
  let serve: ChildProcessByStdio<null, Readable, null> | undefined;
  try {
    const project = generateProject(base, count, env, context);
    const { dir } = project;

    context.log('one-change checkpoint, no core');
    const noCore = measureCheckpoints(project, runs);

    context.log('one-change checkpoint, background core started by the first call');
    const autoStarted = measureAutoStarted(project, runs);

    serve = await startServe(env);
    // The core's first checkpoint of the tree walks it and starts its watcher; after that it follows changes.
    checkpointChange(project, 9_999);
    context.log('one-change checkpoint, resident core');
    const withCore = measureCheckpoints(project, runs);

    context.log('100-file restore by name, resident core');
    const restore = measureRestore(project, runs);

    context.log('relayed list, node start');
    const listRuns = runs * 2;
    const { list, node, version } = measureList(project, listRuns);
    const listMedian = summarize(list).median;
    const imports = loadedFiles(['checkpoints', 'list', dir], env);
    const label = `${count / 1000}k files`;
    const rows = cliRows(label, {
      noCore,
      autoStarted,
      withCore,
      restore,
      listMedian,
      nodeMedian: summarize(node).median,
      versionMedian: summarize(version).median,
    });
    const verdicts = [
      `${label}: checkpoint through the background core ${formatMs(autoStarted.second)} against node -e 0 ${formatMs(autoStarted.first)} (target ≤ node -e 0 + 20 ms): ${autoStarted.second <= autoStarted.first + 20 ? 'met' : 'NOT met'}.`,
      `${label}: resident-core checkpoint ${(withCore.second / withCore.first).toFixed(3)}× of git (target ≤ 0.5×): ${withCore.second <= withCore.first * 0.5 ? 'met' : 'NOT met'}.`,
      `${label}: no-core checkpoint ${formatRatio(noCore.second, noCore.first)} of git (target ≤ 2×): ${noCore.second <= noCore.first * 2 ? 'met' : `NOT met. ${whyNot.noCore}`}`,
      `${label}: 100-file restore ${formatRatio(restore.second, restore.first)} of git checkout (target ≤ 1.5×): ${restore.second <= restore.first * 1.5 ? 'met' : `NOT met. ${whyNot.restore}`} The floor row, a bare node process doing only what a durable restore cannot skip (an undo point fsynced before the first write, each file written to a fsynced temp file and renamed, each folder fsynced, each file read back), took ${formatRatio(restore.floor, restore.first)} of git checkout in this run.`,
      `Relayed list median ${formatMs(listMedian)} (target ≤ 150 ms): ${listMedian <= 150 ? 'met' : `NOT met. ${whyNot.list(summarize(node).median)}`}`,
    ];
    return {
      table: {
        caption: `Whole processes on ${label}, medians of ${runs} alternating runs (the list: ${listRuns})`,
        columns: ['Case', 'Vigil', 'Baseline (same run)', 'Ratio', 'Target'],
        rows,
      },
      verdicts,
      imports,
    };
  } finally {
    serve?.kill('SIGTERM');
    if (serve !== undefined && serve.exitCode === null) await new Promise((resolve) => serve?.once('exit', resolve));
    rmSync(base, { recursive: true, force: true });
  }
}

/** The CLI area of `npm run bench`. */
export const run: BenchArea = async (context) => {
  if (!existsSync(cli))
    throw new Error(`${cli} is missing: run "npm run build" first (this bench times the built CLI, as users run it).`);
  const count = context.isQuick ? 5_000 : 50_000;
  const caNote = caBundleNote(context.isQuick ? 5 : 20);
  const loadBefore = os.loadavg()[0] ?? 0;
  const { table, verdicts, imports } = await measure(count, context.isQuick ? 3 : 7, context);
  const load = `${loadBefore.toFixed(1)} at the start, ${(os.loadavg()[0] ?? 0).toFixed(1)} at the end, on ${os.cpus().length} cores`;
  return {
    title: 'The CLI, whole processes (checkpoint, restore, relay)',
    method: [
      'Each Vigil row is one whole `node out/main/cli.js …` process, as a user runs it, timed from spawn to exit; the baseline row of the',
      'same line ran in the same run, alternating run by run (git: `--git-dir` shadow store with `gc.auto=0`; `add -A` and `commit` are two',
      'processes, timed together). "Resident core" means `vigil serve` runs on the same VIGIL_HOME: the CLI relays the call over loopback',
      '(one HTTP request, serve.json\'s token) and the core, which watches the tree, does the work. "No core": the CLI builds a one-shot',
      "core, which reads the engine's stat cache (a binary index like git's, checksummed; the workers walk against its bytes while the main thread decodes only the folders it needs), walks the tree in the hashing workers",
      "(split across them, as git preloads its index in threads) and reads only the files whose stat changed; a restore's durable pre-rollback snapshot",
      `goes into two fsynced packs (the named files' blobs, then the trees), before its commit and ref. The relayed path loads ${imports.files} files (${imports.kib.toFixed(0)} KiB of JavaScript)${imports.heavy.length === 0 ? ', none of zod, ws, isomorphic-git, chokidar, diff or the MCP SDK.' : `, including ${imports.heavy.join(', ')}.`}`,
      '"After a first call that started the background core": the first `vigil checkpoint` of the run, with no core and auto-start on,',
      'started `vigil core run` detached and relayed to it (that call and one more, which walks the tree and starts its watcher, untimed);',
      "the timed ones are relayed to it like any resident core's, then `vigil core stop` ends it. The other rows run with VIGIL_NO_CORE=1.",
      `The machine is shared with other engineers' builds and tests (load average ${load}): node's own start-up, which git's`,
      'processes do not pay, grows with the load, so on a busy machine the ratios are worse than on an idle one; `node -e 0` is the yardstick.',
      ...(caNote === '' ? [] : [caNote]),
    ].join('\n'),
    tables: [table],
    verdicts,
  };
};
