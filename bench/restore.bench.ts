import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  type CheckpointService,
  loadCheckpointService,
  loadRestoreService,
  type RestoreService,
} from '../electron/checkpoints';
import { silentLogger } from '../electron/logging';
import { formatMs, formatRatio, summarize, type BenchArea, type BenchContext, type BenchTable } from './harness';
import { gitEnv } from './git-env';

const { CheckpointService: CheckpointEngine } = await loadCheckpointService();
const { restoreServiceFor } = await loadRestoreService();

/**
 * Restore side by side with git's CLI on the same generated tree, in the same run: Vigil's whole
 * restore (pre-rollback snapshot, plan, atomic writes with fsync, read-back verification) against
 * `git --git-dir=S --work-tree=D checkout C -- <paths>` on a shadow git dir holding the same files.
 */

/** A generated project: 50 files per leaf folder, 10 leaf folders per top folder, 30–550 bytes each. */
interface Tree {
  readonly dir: string;
  readonly files: readonly string[];
  readonly content: (index: number, version: number) => string;
}

function generate(dir: string, count: number): Tree {
  const files: string[] = [];
  const content = (index: number, version: number): string => {
    const size = 30 + ((index * 7919) % 520);
    const line = `file ${index} version ${version} `;
    return `${line.repeat(Math.ceil(size / line.length)).slice(0, size - 1)}\n`;
  };
  for (let index = 0; index < count; index += 1) {
    const file = `t${Math.floor(index / 500)}/l${Math.floor(index / 50) % 10}/f${index}.txt`;
    files.push(file);
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content(index, 0));
  }
  return { dir, files, content };
}

/** git on the shadow store; automatic gc off, so no detached gc runs during (or after) a measurement. */
function git(store: string, dir: string, args: readonly string[]): void {
  execFileSync('git', ['-c', 'gc.auto=0', '--git-dir', store, '--work-tree', dir, ...args], {
    env: gitEnv,
    cwd: dir,
    stdio: 'ignore',
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The files a scenario changes: every `step`-th file, `count` of them. */
function pick(tree: Tree, count: number): string[] {
  const step = Math.max(1, Math.floor(tree.files.length / count));
  return tree.files.filter((_file, index) => index % step === 0).slice(0, count);
}

/** A change to undo: edit `edited` files; in the whole-directory scenario also delete some and create some. */
function damage(tree: Tree, edited: readonly string[], run: number, extra: boolean): void {
  for (const file of edited) writeFileSync(path.join(tree.dir, file), tree.content(tree.files.indexOf(file), run + 1));
  if (!extra) return;
  for (let index = 0; index < 10; index += 1)
    writeFileSync(path.join(tree.dir, `t0/l0/created-${run}-${index}.txt`), `new ${run}\n`);
}

interface Scenario {
  readonly name: string;
  readonly runs: number;
  /** Prepares the directory (untimed) and returns the paths to restore (empty: all). */
  prepare(run: number): string[];
  /** git's equivalent on its shadow store. */
  git(paths: readonly string[]): void;
  /** Vigil's restore; resolves to the milliseconds its pre-rollback snapshot took. */
  vigil(paths: readonly string[]): Promise<number>;
}

/** Medians of one scenario: Vigil's whole restore, the snapshot part of it, and git. */
interface Comparison {
  readonly vigil: number;
  readonly snapshot: number;
  readonly git: number;
}

/** Times Vigil and git alternately, run by run, so noise on the shared machine hits both alike. */
async function compare(scenario: Scenario): Promise<Comparison> {
  const vigil: number[] = [];
  const snapshot: number[] = [];
  const gitTimes: number[] = [];
  for (let run = 0; run < scenario.runs; run += 1) {
    let paths = scenario.prepare(run * 2);
    let start = performance.now();
    scenario.git(paths);
    gitTimes.push(performance.now() - start);
    paths = scenario.prepare(run * 2 + 1);
    start = performance.now();
    snapshot.push(await scenario.vigil(paths));
    vigil.push(performance.now() - start);
  }
  return { vigil: summarize(vigil).median, snapshot: summarize(snapshot).median, git: summarize(gitTimes).median };
}

/** Restores and measures how long the pre-rollback snapshot took (until the `snapshot 1/1` progress report). */
async function timedRestore(
  restore: RestoreService,
  dir: string,
  id: string,
  paths: readonly string[],
): Promise<number> {
  const start = performance.now();
  let snapshotMs = 0;
  const result = await restore.restore(dir, id, paths, {
    onProgress: (step) => {
      if (step.phase === 'snapshot' && step.done === 1) snapshotMs = performance.now() - start;
    },
  });
  if (result.counts.conflict + result.counts.failed > 0)
    throw new Error(`restore left ${result.counts.conflict + result.counts.failed} file(s) behind`);
  return snapshotMs;
}

/** The engine modes a restore runs under: the CLI's one-shot engine, and the app's watching one. */
const modes = [
  { name: 'CLI', watch: false },
  { name: 'app', watch: true },
] as const;

/** The generated tree, committed as it is to a shadow git dir. */
function generateWithShadowGit(base: string, count: number): { dir: string; tree: Tree; store: string } {
  const dir = path.join(base, 'project');
  const tree = generate(dir, count);
  const store = path.join(base, 'git-shadow');
  execFileSync('git', ['init', '--bare', '--quiet', store], { env: gitEnv });
  git(store, dir, ['add', '-A']);
  git(store, dir, ['commit', '--quiet', '-m', 'checkpoint']);
  return { dir, tree, store };
}

/** The checkpoint every restore goes back to: taken by the first engine, which later engines take over. */
async function checkpointToRestore(engine: CheckpointService, dir: string, id: string | undefined): Promise<string> {
  if (id === undefined) {
    const first = await engine.checkpoint(dir, { reason: 'before write_file' });
    if (first.kind !== 'created') throw new Error('no checkpoint');
    return first.checkpoint.id;
  }
  // Let the watching engine take over the directory (it starts watching at its first checkpoint).
  await engine.checkpoint(dir, { reason: 'manual checkpoint' });
  return id;
}

/** What the scenarios of one engine mode restore, and with what. */
interface ScenarioSetup {
  readonly tree: Tree;
  readonly store: string;
  readonly restore: RestoreService;
  readonly target: string;
  readonly hundred: string[];
  readonly runs: number;
}

/** 100 changed files by name, and the whole directory with 100 changed and 10 created. */
function changedScenarios(setup: ScenarioSetup): Scenario[] {
  const { tree, store, restore, target, hundred, runs } = setup;
  const dir = tree.dir;
  return [
    {
      name: '100 changed files, restored by name',
      runs,
      prepare: (run) => (damage(tree, hundred, run, false), hundred),
      git: (paths) => git(store, dir, ['checkout', 'HEAD', '--', ...paths]),
      vigil: (paths) => timedRestore(restore, dir, target, paths),
    },
    {
      name: 'whole directory, 100 changed (+10 created)',
      runs,
      prepare: (run) => (damage(tree, hundred, run, true), []),
      git: () => git(store, dir, ['checkout', 'HEAD', '--', '.']),
      vigil: () => timedRestore(restore, dir, target, []),
    },
  ];
}

/** The whole directory deleted and every file re-created. */
function fullScenario(setup: ScenarioSetup, count: number): Scenario {
  const { tree, store, restore, target, runs } = setup;
  const dir = tree.dir;
  return {
    name: 'whole directory, every file re-created',
    runs: Math.max(1, Math.min(runs, count > 1_000 ? 1 : 3)),
    prepare: () => {
      for (const top of new Set(tree.files.map((file) => file.split('/')[0] ?? '')))
        rmSync(path.join(dir, top), { recursive: true, force: true });
      return [];
    },
    git: () => git(store, dir, ['checkout', 'HEAD', '--', '.']),
    vigil: () => timedRestore(restore, dir, target, []),
  };
}

/** One table row: a scenario's medians under one engine mode. */
function scenarioRow(label: string, mode: string, scenario: string, result: Comparison): string[] {
  return [
    label,
    mode,
    scenario,
    formatMs(result.vigil),
    formatMs(result.snapshot),
    formatMs(result.git),
    formatRatio(result.vigil, result.git),
    formatRatio(result.vigil - result.snapshot, result.git),
  ];
}

/** Every scenario at one tree size, under each engine mode in turn. */
async function measureSize(
  count: number,
  context: BenchContext,
  runs: number,
  includeFull: boolean,
): Promise<string[][]> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-restore-'));
  const rows: string[][] = [];
  const label = count >= 1000 ? `${count / 1000}k` : String(count);
  try {
    const { dir, tree, store } = generateWithShadowGit(base, count);
    const root = path.join(base, 'home', 'checkpoints');
    const hundred = pick(tree, 100);
    let id: string | undefined;
    for (const mode of modes) {
      const engine = new CheckpointEngine({ root, logger: silentLogger, watch: mode.watch });
      const restore: RestoreService = restoreServiceFor(engine, root, silentLogger);
      try {
        id = await checkpointToRestore(engine, dir, id);
        const setup: ScenarioSetup = { tree, store, restore, target: id, hundred, runs };
        const scenarios = changedScenarios(setup);
        if (includeFull && !mode.watch) scenarios.push(fullScenario(setup, count));
        for (const scenario of scenarios) {
          context.log(`${label} ${mode.name}: ${scenario.name}`);
          const row = scenarioRow(label, mode.name, scenario.name, await compare(scenario));
          context.log(row.join(' | '));
          rows.push(row);
        }
      } finally {
        await engine.dispose();
      }
    }
  } finally {
    rmSync(base, { recursive: true, force: true, maxRetries: 5 });
  }
  return rows;
}

/** The restore rows of the checkpoint benchmark (design.md §7). */
export const run: BenchArea = async (context) => {
  // VIGIL_BENCH_RESTORE_SIZES=1000,10000 measures only those sizes (for a quick look; the recorded run uses the default).
  const chosen = process.env['VIGIL_BENCH_RESTORE_SIZES']
    ?.split(',')
    .map(Number)
    .filter((size) => size > 0);
  const sizes = context.isQuick
    ? [1_000]
    : chosen !== undefined && chosen.length > 0
      ? chosen
      : [1_000, 10_000, 50_000];
  const rows: string[][] = [];
  for (const size of sizes)
    rows.push(...(await measureSize(size, context, context.isQuick ? 1 : size >= 50_000 ? 3 : 5, size <= 10_000)));
  const table: BenchTable = {
    caption: 'Restore (medians; ratio = Vigil ÷ git)',
    columns: [
      'Files',
      'Engine',
      'Scenario',
      'Vigil restore',
      'of which pre-rollback snapshot',
      'git checkout',
      'Ratio',
      'Ratio without the snapshot',
    ],
    rows,
  };
  const targets = rows
    .filter((row) => !row[2]?.startsWith('whole directory, every'))
    .map(
      (row) =>
        `${row[0]} ${row[1]}, ${row[2]}: ${row[6]} of git's time, ${row[7]} without the safety snapshot git does not take (target ≤ 1.50×)`,
    );
  return {
    title: 'Restore',
    method: [
      'A generated project (50 files per folder, 30–550 bytes each) is checkpointed by Vigil and committed to a shadow git',
      'dir; then, untimed, files are edited (and in the whole-directory rows 10 created, which git leaves in place and Vigil',
      "deletes), and the restore is timed. Vigil's time is the whole restore a user runs: the pre-rollback snapshot, the plan,",
      'atomic writes with fsync, and a read-back verification. "CLI" is a one-shot engine as `vigil checkpoints restore` uses',
      '(no watcher, so its snapshot stat-walks the whole tree); "app" is the watching engine of the app and `vigil serve`, whose',
      "snapshot looks only at what the watcher reported. git's is `git --git-dir=S --work-tree=D checkout HEAD -- <paths>`",
      "(no safety snapshot, no fsync). Vigil and git alternate run by run on a machine shared with other engineers' builds and",
      'tests (load average often above 10 on 2 cores), so absolute figures are noisy; read the ratios.',
    ].join(' '),
    tables: [table],
    verdicts: targets,
  };
};
