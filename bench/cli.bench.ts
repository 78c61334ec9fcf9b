import type { ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { formatMs, formatRatio, summarize, type BenchArea, type BenchContext, type BenchTable } from './harness';
import {
  alternate,
  checkpointChange,
  edit,
  generateProject,
  gitCheckpoint,
  gitCheckpointInRepository,
  makeRepository,
  timed,
  vigilCheckpoint,
  type Pair,
  type Project,
} from './cli-project';
import { measureOneFileRestore, measureRestore, type RestoreTimes } from './cli-restore';
import { whyNot } from './cli-why-not';
import { defaultRetentionEnv, fillToRetentionLimit } from './default-retention';
import { type LoadedFiles, caBundleNote, cli, loadedFiles, startServe, vigilBenchEnv } from './vigil-process';

/**
 * Whole `vigil` processes (the built CLI, as a user runs it) side by side with git's CLI on the same
 * generated tree, in the same run, at each tree size: a one-change checkpoint with and without a
 * resident core (`vigil serve`) against `git add -A && git commit`, through a background core a first
 * call started against `node -e 0`, a 100-file restore by name against `git checkout -- FILES` plus
 * an fsync of those files and folders, a one-file restore and a relayed `vigil checkpoints list`
 * against `node -e 0`.
 */

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

/**
 * One-change checkpoints relayed to a background core as {@link measureAutoStarted}, but in a
 * VIGIL_HOME with no config.json, so at the default retention, and with the folder already at its
 * limit: each timed checkpoint also cuts the oldest (the other rows' VIGIL_HOME raises the limit out
 * of the way). Git's shadow store is brought level after, untimed, for the rows that follow.
 */
async function measureAtDefaultRetention(
  base: string,
  project: Project,
  runs: number,
): Promise<Pair & { readonly maxSnapshots: number }> {
  const env = defaultRetentionEnv(base, project.env);
  const atDefault: Project = { ...project, env };
  try {
    const maxSnapshots = await fillToRetentionLimit(env, project.dir, (run) => edit(project, 40_000 + run));
    const pair = alternate(
      runs,
      (run) => edit(project, 41_000 + run),
      () => timed(process.execPath, ['-e', '0'], project.env),
      () => vigilCheckpoint(atDefault),
    );
    return { ...pair, maxSnapshots };
  } finally {
    timed(process.execPath, [cli, 'core', 'stop'], env);
    gitCheckpoint(project.store, project.dir);
  }
}

/**
 * One-change checkpoints with no core once the tree is a git repository of its own, every file
 * tracked (most projects are): Vigil then reads the repository's index and ignore files for what to
 * store. Against `git add -A && git commit` in that repository. Last, as it changes the tree for good.
 */
function measureInRepository(project: Project, runs: number): Pair {
  makeRepository(project.dir);
  checkpointChange(project, 19_999);
  return alternate(
    runs,
    (run) => edit(project, 20_000 + run),
    () => gitCheckpointInRepository(project.dir),
    () => vigilCheckpoint(project),
  );
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
  /** As `noCore`, the tree a git repository with every file tracked, against git in that repository. */
  readonly inRepository: Pair;
  /** `node -e 0` (`first`) and a one-change checkpoint relayed to the background core a first call started (`second`). */
  readonly autoStarted: Pair;
  /** As `autoStarted`, at the default retention with the folder at its limit (each checkpoint cuts one). */
  readonly atDefaultRetention: Pair & { readonly maxSnapshots: number };
  readonly withCore: Pair;
  readonly restore: RestoreTimes;
  readonly oneFile: { readonly node: number; readonly vigil: number };
  readonly listMedian: number;
  readonly nodeMedian: number;
  readonly versionMedian: number;
}

/** Issue 31's targets for a no-core checkpoint against git add+commit: none at 5k, 2× at 50k, 1.5× at 200k and up. */
function noCoreTarget(count: number): number | undefined {
  if (count >= 200_000) return 1.5;
  return count >= 50_000 ? 2 : undefined;
}

/** The table's rows: each case, its same-run baseline, the ratio and the target. */
function cliRows(label: string, count: number, results: CliResults): string[][] {
  const { noCore, inRepository, autoStarted, atDefaultRetention, withCore, restore, oneFile, listMedian, nodeMedian } =
    results;
  const noCoreLimit = noCoreTarget(count);
  return [
    [
      `One-change \`vigil checkpoint\`, after a first call that started the background core (${label})`,
      formatMs(autoStarted.second),
      `node -e 0: ${formatMs(autoStarted.first)}`,
      formatRatio(autoStarted.second, autoStarted.first),
      '≤ node -e 0 + 20 ms',
    ],
    [
      `The same at the default retention, the folder at its ${String(atDefaultRetention.maxSnapshots)} checkpoints (each one cuts the oldest) (${label})`,
      formatMs(atDefaultRetention.second),
      `node -e 0: ${formatMs(atDefaultRetention.first)}`,
      formatRatio(atDefaultRetention.second, atDefaultRetention.first),
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
      noCoreLimit === undefined ? '' : `≤ ${String(noCoreLimit)}×`,
    ],
    [
      `The same, the tree a git repository with every file tracked (${label})`,
      formatMs(inRepository.second),
      `git add -A && git commit in that repository: ${formatMs(inRepository.first)}`,
      formatRatio(inRepository.second, inRepository.first),
      noCoreLimit === undefined ? '' : `≤ ${String(noCoreLimit)}×`,
    ],
    [
      `100-file \`vigil checkpoints restore DIR N FILE…\`, resident core (${label})`,
      formatMs(restore.vigil),
      `git checkout -- FILE… && sync FILE… FOLDER…: ${formatMs(restore.gitDurable)} (checkout alone ${formatMs(restore.git)})`,
      formatRatio(restore.vigil, restore.gitDurable),
      '≤ 1.3×',
    ],
    [
      `The floor of a durable 100-file restore: bench/durable-restore-floor.mjs, a bare node process (${label})`,
      formatMs(restore.floor),
      `git checkout -- FILE… && sync FILE… FOLDER…: ${formatMs(restore.gitDurable)}`,
      formatRatio(restore.floor, restore.gitDurable),
      '(reference)',
    ],
    [
      `1-file \`vigil checkpoints restore DIR N FILE\`, resident core (${label})`,
      formatMs(oneFile.vigil),
      `node -e 0: ${formatMs(oneFile.node)}`,
      formatRatio(oneFile.vigil, oneFile.node),
      '≤ node -e 0 + 20 ms',
    ],
    [
      `Relayed \`vigil checkpoints list DIR\` (${label})`,
      formatMs(listMedian),
      `node -e 0: ${formatMs(nodeMedian)}`,
      formatRatio(listMedian, nodeMedian),
      '≤ 150 ms',
    ],
  ];
}

/** Whether a measured value meets its target, as the verdicts say it. */
function verdict(isMet: boolean, why = ''): string {
  return isMet ? 'met.' : `NOT met.${why === '' ? '' : ` ${why}`}`;
}

/** One line per target of one tree size. */
function cliVerdicts(label: string, count: number, results: CliResults): string[] {
  const { noCore, inRepository, autoStarted, atDefaultRetention, withCore, restore, oneFile, listMedian, nodeMedian } =
    results;
  const noCoreLimit = noCoreTarget(count);
  return [
    `${label}: checkpoint through the background core ${formatMs(autoStarted.second)} against node -e 0 ${formatMs(autoStarted.first)} (target ≤ node -e 0 + 20 ms): ${verdict(autoStarted.second <= autoStarted.first + 20)}`,
    `${label}: the same at the default retention, each checkpoint cutting the oldest, ${formatMs(atDefaultRetention.second)} against node -e 0 ${formatMs(atDefaultRetention.first)} (the same target): ${verdict(atDefaultRetention.second <= atDefaultRetention.first + 20)}`,
    `${label}: resident-core checkpoint ${(withCore.second / withCore.first).toFixed(3)}× of git (target ≤ 0.5×): ${verdict(withCore.second <= withCore.first * 0.5)}`,
    `${label}: no-core checkpoint ${formatRatio(noCore.second, noCore.first)} of git${noCoreLimit === undefined ? ' (no target at this size).' : ` (target ≤ ${String(noCoreLimit)}×): ${verdict(noCore.second <= noCore.first * noCoreLimit, whyNot.noCore)}`}`,
    `${label}: the same in a git repository, every file tracked, ${formatRatio(inRepository.second, inRepository.first)} of git in that repository${noCoreLimit === undefined ? ' (no target at this size).' : ` (target ≤ ${String(noCoreLimit)}×): ${verdict(inRepository.second <= inRepository.first * noCoreLimit)}`}`,
    `${label}: 100-file restore ${formatRatio(restore.vigil, restore.gitDurable)} of git checkout + fsync of those files and folders (target ≤ 1.3×; ${formatRatio(restore.vigil, restore.git)} of checkout alone): ${verdict(restore.vigil <= restore.gitDurable * 1.3, whyNot.restore)} The floor row, a bare node process doing only what a durable restore cannot skip (an undo point fsynced before the first write, each file written to a fsynced temp file and renamed, each folder fsynced, each file read back), took ${formatRatio(restore.floor, restore.gitDurable)} of git checkout + fsync in this run.`,
    `${label}: 1-file restore ${formatMs(oneFile.vigil)} against node -e 0 ${formatMs(oneFile.node)} (target ≤ node -e 0 + 20 ms): ${verdict(oneFile.vigil <= oneFile.node + 20)}`,
    `${label}: relayed list median ${formatMs(listMedian)} (target ≤ 150 ms): ${verdict(listMedian <= 150, whyNot.list(nodeMedian))}`,
  ];
}

/** Checkpoints with and without a resident core, restores, and the relayed list, at one tree size. */
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
    const label = `${count / 1000}k files`;

    context.log(`${label}: one-change checkpoint, no core`);
    const noCore = measureCheckpoints(project, runs);

    context.log(`${label}: one-change checkpoint, background core started by the first call`);
    const autoStarted = measureAutoStarted(project, runs);

    context.log(`${label}: the same at the default retention, the folder at its limit`);
    const atDefaultRetention = await measureAtDefaultRetention(base, project, runs);

    serve = await startServe(env);
    // The core's first checkpoint of the tree walks it and starts its watcher; after that it follows changes.
    checkpointChange(project, 9_999);
    context.log(`${label}: one-change checkpoint, resident core`);
    const withCore = measureCheckpoints(project, runs);

    context.log(`${label}: 100-file and 1-file restores by name, resident core`);
    const restore = measureRestore(project, runs, 100);
    const oneFile = measureOneFileRestore(project, runs * 2);

    context.log(`${label}: relayed list, node start`);
    const listRuns = runs * 2;
    const { list, node, version } = measureList(project, listRuns);
    const imports = loadedFiles(['checkpoints', 'list', dir], env);
    serve.kill('SIGTERM');
    await new Promise((resolve) => serve?.once('exit', resolve));
    serve = undefined;
    context.log(`${label}: one-change checkpoint, no core, the tree made a git repository (every file tracked)`);
    const inRepository = measureInRepository(project, runs);
    const results: CliResults = {
      noCore,
      inRepository,
      autoStarted,
      atDefaultRetention,
      withCore,
      restore,
      oneFile,
      listMedian: summarize(list).median,
      nodeMedian: summarize(node).median,
      versionMedian: summarize(version).median,
    };
    const rows = [
      ...cliRows(label, count, results),
      [
        '`vigil --version`',
        formatMs(results.versionMedian),
        `node -e 0: ${formatMs(results.nodeMedian)}`,
        formatRatio(results.versionMedian, results.nodeMedian),
        '',
      ],
    ];
    return {
      table: {
        caption: `Whole processes on ${label}, medians of ${runs} alternating runs (the 1-file restore and the list: ${listRuns})`,
        columns: ['Case', 'Vigil', 'Baseline (same run)', 'Ratio', 'Target'],
        rows,
      },
      verdicts: cliVerdicts(label, count, results),
      imports,
    };
  } finally {
    serve?.kill('SIGTERM');
    if (serve !== undefined && serve.exitCode === null) await new Promise((resolve) => serve?.once('exit', resolve));
    rmSync(base, { recursive: true, force: true });
  }
}

/** The tree sizes: `VIGIL_BENCH_CLI_SIZES` (comma-separated file counts), else 5k, 50k and 200k (`--quick`: 5k). */
function treeSizes(isQuick: boolean): number[] {
  const given = process.env['VIGIL_BENCH_CLI_SIZES'];
  if (given !== undefined && given !== '') return given.split(',').map((size) => Number(size.trim()));
  return isQuick ? [5_000] : [5_000, 50_000, 200_000];
}

/** The CLI area of `npm run bench`. */
export const run: BenchArea = async (context) => {
  if (!existsSync(cli))
    throw new Error(`${cli} is missing: run "npm run build" first (this bench times the built CLI, as users run it).`);
  const caNote = caBundleNote(context.isQuick ? 5 : 20);
  const loadBefore = os.loadavg()[0] ?? 0;
  const tables: BenchTable[] = [];
  const verdicts: string[] = [];
  let imports: LoadedFiles | undefined;
  for (const count of treeSizes(context.isQuick)) {
    const measured = await measure(count, context.isQuick ? 3 : 7, context);
    tables.push(measured.table);
    verdicts.push(...measured.verdicts);
    imports ??= measured.imports;
  }
  const load = `${loadBefore.toFixed(1)} at the start, ${(os.loadavg()[0] ?? 0).toFixed(1)} at the end, on ${os.cpus().length} cores`;
  return {
    title: 'The CLI, whole processes (checkpoint, restore, relay)',
    method: [
      'Each Vigil row is one whole `node out/main/cli.cjs …` (the package bin) process, as a user runs it, timed from spawn to exit; the baseline row of the',
      'same line ran in the same run, alternating run by run (git: `--git-dir` shadow store with `gc.auto=0`; `add -A` and `commit` are two',
      'processes, timed together). "Resident core" means `vigil serve` runs on the same VIGIL_HOME: the CLI relays the call over loopback',
      '(one HTTP request, serve.json\'s token) and the core, which watches the tree, does the work. "No core": the CLI builds a one-shot',
      "core, which reads the engine's stat cache (a binary index like git's, checksummed; the workers walk against its bytes while the main thread decodes only the folders it needs), walks the tree in the hashing workers",
      "(split across them, as git preloads its index in threads) and reads only the files whose stat changed; a restore's durable pre-rollback snapshot",
      `goes into two fsynced packs (the named files' blobs, then the trees), before its commit and ref. The relayed path loads ${imports?.files ?? 0} files (${(imports?.kib ?? 0).toFixed(0)} KiB of JavaScript)${(imports?.heavy.length ?? 0) === 0 ? ', none of zod, ws, isomorphic-git, chokidar, diff or the MCP SDK.' : `, including ${imports?.heavy.join(', ') ?? ''}.`}`,
      '"After a first call that started the background core": the first `vigil checkpoint` of the run, with no core and auto-start on,',
      'started `vigil core run` detached and relayed to it (that call and one more, which walks the tree and starts its watcher, untimed);',
      "the timed ones are relayed to it like any resident core's, then `vigil core stop` ends it. The other rows run with VIGIL_NO_CORE=1.",
      '"At the default retention": the same, in a VIGIL_HOME with no config.json (the other rows\' raises checkpoints.maxSnapshots to 10,000 to keep cuts out of them),',
      "after untimed checkpoints up to the limit and one past it, so every timed one also cuts the folder's oldest, as it does for a user past their first checkpoints.maxSnapshots.",
      '"The tree a git repository": last (the core stopped), the tree is made a git repository of its own (a usual .gitignore; every file added and committed, untimed)',
      "and the no-core checkpoint is timed against `git add -A && git commit` in that repository: Vigil then reads the repository's index and ignore files for what to store (every tracked file; untracked ones by the ignore rules).",
      'A restore by name goes back to the same checkpoint every run, the one git checks out: each restore makes an undo point, the newest',
      'checkpoint, so N counts the restores made so far plus one (a fixed 1 sent every restore after the first to the previous undo point).',
      `The machine is shared with other engineers' builds and tests (load average ${load}): node's own start-up, which git's`,
      'processes do not pay, grows with the load, so on a busy machine the ratios are worse than on an idle one; `node -e 0` is the yardstick.',
      ...(caNote === '' ? [] : [caNote]),
    ].join('\n'),
    tables,
    verdicts,
  };
};
