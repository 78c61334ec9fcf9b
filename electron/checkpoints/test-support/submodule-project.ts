import path from 'node:path';
import { expect } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { useTempFixture } from '../../test-support/temp-fixture';
import { CheckpointService } from '../checkpoint-service';
import { runGit, writeFiles } from './restore-fixtures';
import { makeRulesRepo, type RulesRepo } from './rules-repo';

/** git's own flag for `git submodule add` from a local folder (refused by default since git 2.38.1). */
export const allowFileProtocol = ['-c', 'protocol.file.allow=always'] as const;

/**
 * A project repository (`<root>/project`, ignoring `*.tmp`, `main.txt` committed) beside a library
 * repository to add as its submodule (`<root>/lib`: a tracked database, a built-in exclusion; a
 * tracked `notes.tmp`, which the project ignores; `src/a.txt`; and `libFiles`), and an engine that
 * walks the project, its store under `storeRoot`.
 */
export interface SubmoduleProject extends RulesRepo {
  readonly root: string;
  readonly lib: string;
  readonly storeRoot: string;
  readonly engine: CheckpointService;
}

/** What the project is made with: extra library files, and where the library is added as a submodule (none: not yet). */
export interface SubmoduleProjectOptions {
  readonly libFiles?: Readonly<Record<string, string>>;
  readonly at?: string;
}

/** Makes the project and its library in `root` (see `SubmoduleProject`). */
export function makeSubmoduleProject(root: string, options: SubmoduleProjectOptions = {}): SubmoduleProject {
  const repo = makeRulesRepo(root);
  const lib = path.join(root, 'lib');
  runGit(['init', '-q', lib]);
  writeFiles(lib, { 'data.sqlite': 'rows\n', 'notes.tmp': 'tracked here\n', 'src/a.txt': 'a\n', ...options.libFiles });
  runGit(['add', '-f', '-A'], { cwd: lib });
  runGit(['commit', '-q', '-m', 'lib'], { cwd: lib });
  writeFiles(repo.dir, { '.gitignore': '*.tmp\n', 'main.txt': 'main\n' });
  runGit(['add', '-A'], { cwd: repo.dir });
  if (options.at !== undefined)
    runGit([...allowFileProtocol, 'submodule', 'add', '-q', lib, options.at], { cwd: repo.dir });
  runGit(['commit', '-q', '-m', options.at === undefined ? 'main' : 'with lib'], { cwd: repo.dir });
  const storeRoot = path.join(root, 'walked', 'checkpoints');
  return { ...repo, root, lib, storeRoot, engine: projectEngine({ ...repo, root }, 'walked', false) };
}

/** A fresh project for each test of the calling file, its engine disposed after the test (see `useTempFixture`). */
export function useSubmoduleProject(prefix: string, options: SubmoduleProjectOptions = {}): () => SubmoduleProject {
  return useTempFixture(
    prefix,
    (root) => makeSubmoduleProject(root, options),
    (project) => project.engine.dispose(),
  );
}

/** Another engine on the project, its store under `<root>/<name>`: watching it (as a resident core) or walking it. */
export function projectEngine(
  project: Pick<SubmoduleProject, 'root' | 'environment'>,
  name: string,
  watch: boolean,
): CheckpointService {
  return new CheckpointService({
    root: path.join(project.root, name, 'checkpoints'),
    logger: silentLogger,
    rulesEnvironment: project.environment,
    ...(watch && { watch: true, verifyEveryMs: 0 }),
  });
}

/** The tree of a new checkpoint of `dir` by `service`, or undefined when nothing changed. */
export async function treeOf(service: CheckpointService, dir: string): Promise<string | undefined> {
  const outcome = await service.checkpoint(dir, { reason: 'test' });
  return outcome.kind === 'created' ? outcome.checkpoint.tree : undefined;
}

/** The paths of a tree `service` stored, as git's own CLI lists them. */
export function listedPaths(service: CheckpointService, tree: string): string[] {
  return runGit(['--git-dir', service.gitdir, 'ls-tree', '-r', '-z', '--name-only', tree])
    .split('\0')
    .filter((rel) => rel !== '');
}

/** The paths of a new checkpoint of the project by its engine. */
export async function storedPaths(project: SubmoduleProject): Promise<string[]> {
  const tree = await treeOf(project.engine, project.dir);
  if (tree === undefined) throw new Error('expected a new checkpoint');
  return listedPaths(project.engine, tree);
}

/** Adds the library as a submodule of the project at `at` (relative, `/`-separated) and commits it. */
export function addSubmodule(project: SubmoduleProject, at: string, ...options: readonly string[]): void {
  runGit([...allowFileProtocol, 'submodule', 'add', '-q', ...options, project.lib, at], { cwd: project.dir });
  runGit(['commit', '-q', '-m', `lib at ${at}`], { cwd: project.dir });
}

/**
 * After each step, an engine watching the project (as a resident core does) stores a new tree, the
 * very tree its walking engine stores; resolves to the last of them.
 */
export async function expectWatchAgrees(project: SubmoduleProject, steps: readonly (() => void)[]): Promise<string> {
  const watched = projectEngine(project, 'watched', true);
  try {
    expect(await treeOf(watched, project.dir)).toBeDefined();
    let agreed = '';
    for (const step of steps) {
      step();
      const [fromWatch, fromWalk] = [await treeOf(watched, project.dir), await treeOf(project.engine, project.dir)];
      expect(fromWatch).toBeDefined();
      expect(fromWatch).toBe(fromWalk);
      agreed = fromWatch ?? '';
    }
    return agreed;
  } finally {
    await watched.dispose();
  }
}

/** A random differential over the project: how many steps, each step (returning what it did), and what a walk must hold. */
export interface RandomSteps {
  readonly seed: number;
  readonly steps: number;
  readonly step: (index: number) => string;
  /** Paths every walk's tree must list (relative to the project), asked after each step. */
  readonly mustHold: () => readonly string[];
  /** A pause after each step before the checkpoints (ms). */
  readonly pauseMs?: number;
}

/**
 * Random steps on the project; after each, a fresh engine (a one-shot process) walks it and an engine
 * watching it (a resident core) checkpoints: both trees list the same paths, and the walk's holds
 * `mustHold`. A failure names the seed and the steps so far (`VIGIL_TEST_SEED` replays them).
 */
export async function expectRandomStepsAgree(project: SubmoduleProject, random: RandomSteps): Promise<void> {
  const { dir } = project;
  const watched = projectEngine(project, 'watched', true);
  try {
    const first = await watched.checkpoint(dir, { reason: 'start' });
    let watchTree = first.kind === 'created' ? first.checkpoint.tree : '';
    const log: string[] = [];
    for (let index = 0; index < random.steps; index += 1) {
      log.push(random.step(index));
      if (random.pauseMs !== undefined) await new Promise((resolve) => setTimeout(resolve, random.pauseMs));
      const walker = projectEngine(project, `walk-${index}`, false);
      try {
        const walked = await walker.checkpoint(dir, { reason: 'walk' });
        const fromWatch = await watched.checkpoint(dir, { reason: `step ${index}` });
        if (walked.kind !== 'created') throw new Error('the walk made no checkpoint');
        if (fromWatch.kind === 'created') watchTree = fromWatch.checkpoint.tree;
        const stored = listedPaths(walker, walked.checkpoint.tree).sort();
        const context = `seed ${random.seed}: ${log.join('; ')}`;
        expect(stored, context).toEqual(expect.arrayContaining([...random.mustHold()]));
        expect(listedPaths(watched, watchTree).sort(), context).toEqual(stored);
      } finally {
        await walker.dispose();
      }
    }
  } finally {
    await watched.dispose();
  }
}
