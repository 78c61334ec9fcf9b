import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { summarize, type BenchContext } from './harness';
import { gitEnv } from './git-env';
import { cli } from './vigil-process';

/** Wall time of one whole process, in milliseconds. */
export function timed(command: string, args: readonly string[], env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  execFileSync(command, args, { env, stdio: 'ignore', maxBuffer: 64 * 1024 * 1024 });
  return performance.now() - start;
}

/** git's arguments for the project's shadow store (`--git-dir` outside the tree, no automatic gc). */
export function gitArgs(store: string, dir: string, args: readonly string[]): string[] {
  return ['-c', 'gc.auto=0', '--git-dir', store, '--work-tree', dir, ...args];
}

/** git's one-change checkpoint: `add -A` then `commit`, two processes, timed together. */
export function gitCheckpoint(store: string, dir: string): number {
  return (
    timed('git', gitArgs(store, dir, ['add', '-A']), gitEnv) +
    timed('git', gitArgs(store, dir, ['commit', '-q', '--allow-empty', '-m', 'checkpoint']), gitEnv)
  );
}

/** git's one-change checkpoint inside the project's own repository (`add -A` then `commit`, two processes, timed together). */
export function gitCheckpointInRepository(dir: string): number {
  const inRepo = (args: readonly string[]): string[] => ['-C', dir, '-c', 'gc.auto=0', ...args];
  return (
    timed('git', inRepo(['add', '-A']), gitEnv) +
    timed('git', inRepo(['commit', '-q', '--allow-empty', '-m', 'checkpoint']), gitEnv)
  );
}

/** Makes the project a git repository of its own, with a project's usual .gitignore, every file tracked and committed (untimed). */
export function makeRepository(dir: string): void {
  execFileSync('git', ['init', '-q', dir], { env: gitEnv });
  writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\ndist/\n*.log\n.env\n');
  gitCheckpointInRepository(dir);
}

/** A file's content at a version: 30–550 bytes. */
export function content(index: number, version: number): string {
  const line = `file ${index} version ${version} `;
  return `${line.repeat(Math.ceil((30 + ((index * 7919) % 520)) / line.length))}\n`;
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

/** Runs each measure in turn, run by run, so the shared machine's noise hits all alike; each one's median. */
export function alternateAll(
  runs: number,
  prepare: (run: number) => void,
  measures: readonly (() => number)[],
): number[] {
  const samples = measures.map((): number[] => []);
  for (let run = 0; run < runs; run += 1) {
    measures.forEach((measure, index) => {
      prepare(run * measures.length + index);
      samples[index]?.push(measure());
    });
  }
  return samples.map((times) => summarize(times).median);
}

/** Medians of one alternating pair: the baseline (`first`) and Vigil (`second`). */
export interface Pair {
  readonly first: number;
  readonly second: number;
}

/** Runs each pair alternately, run by run, so the shared machine's noise hits both alike; medians. */
export function alternate(
  runs: number,
  prepare: (run: number) => void,
  first: () => number,
  second: () => number,
): Pair {
  const [a = Number.NaN, b = Number.NaN] = alternateAll(runs, prepare, [first, second]);
  return { first: a, second: b };
}

/** The generated project, its shadow git store, and the environment every `vigil` process runs in. */
export interface Project {
  readonly dir: string;
  readonly files: readonly string[];
  readonly store: string;
  readonly env: NodeJS.ProcessEnv;
}

/** One whole `vigil checkpoint DIR` process. */
export function vigilCheckpoint(project: Project): number {
  return timed(process.execPath, [cli, 'checkpoint', project.dir], project.env);
}

/** Generates the tree and checkpoints it once with each tool, untimed. */
export function generateProject(base: string, count: number, env: NodeJS.ProcessEnv, context: BenchContext): Project {
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
export function edit(project: Project, run: number): void {
  writeFileSync(path.join(project.dir, project.files[run % project.files.length] ?? ''), content(run, run + 1));
}

/** One change checkpointed by Vigil then git, untimed, so both start the next measurement from the same state. */
export function checkpointChange(project: Project, run: number): void {
  edit(project, run);
  vigilCheckpoint(project);
  gitCheckpoint(project.store, project.dir);
}
