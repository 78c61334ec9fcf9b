import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { useTempFixture } from '../../test-support/temp-fixture';
import { CheckpointService } from '../checkpoint-service';
import { runGit, writeFiles } from '../test-support/restore-fixtures';
import { makeRulesRepo, type RulesRepo } from '../test-support/rules-repo';
import { RepoRulesCache, type RulesEnvironment } from './repo-rules';

/**
 * A checkpoint of a repository holding submodules stores what git tracks in each submodule, and
 * judges the submodule's untracked files by the submodule's own ignore rules (git never applies the
 * outer repository's inside a submodule). Before, a submodule's files followed the outer
 * repository's rules: a tracked `*.sqlite` in it (a built-in exclusion) or a file the outer
 * `.gitignore` covers was silently left out of every checkpoint.
 */

/** The project, a repository whose `vendor/lib` is a submodule (a clone of `<root>/lib`), and an engine on a store of its own. */
interface SubmoduleFixture extends RulesRepo {
  readonly root: string;
  readonly lib: string;
  readonly engine: CheckpointService;
}

const fixture = useTempFixture(
  'vigil-submodule-rules-',
  (root): SubmoduleFixture => {
    const repo = makeRulesRepo(root);
    const lib = path.join(root, 'lib');
    // The library: a tracked database (a built-in exclusion), a tracked file the project ignores, its own ignore rule.
    runGit(['init', '-q', lib]);
    writeFiles(lib, {
      'data.sqlite': 'rows\n',
      'notes.tmp': 'tracked here\n',
      '.gitignore': 'gen/\n',
      'src/a.txt': 'a\n',
    });
    runGit(['add', '-f', '-A'], { cwd: lib });
    runGit(['commit', '-q', '-m', 'lib'], { cwd: lib });
    writeFiles(repo.dir, { '.gitignore': '*.tmp\n', 'main.txt': 'main\n' });
    runGit(['add', '-A'], { cwd: repo.dir });
    runGit(['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'vendor/lib'], { cwd: repo.dir });
    runGit(['commit', '-q', '-m', 'with lib'], { cwd: repo.dir });
    const engine = newEngine(root, repo.environment, 'walked', false);
    return { ...repo, root, lib, engine };
  },
  (made) => made.engine.dispose(),
);

/** An engine on a store of its own under `<root>/<name>`: watching the folder (as a resident core) or walking it. */
function newEngine(root: string, environment: RulesEnvironment, name: string, watch: boolean): CheckpointService {
  return new CheckpointService({
    root: path.join(root, name, 'checkpoints'),
    logger: silentLogger,
    rulesEnvironment: environment,
    ...(watch && { watch: true, verifyEveryMs: 0 }),
  });
}

/** The paths of a new checkpoint of `dir`, as git's own CLI lists its tree. */
async function storedPaths(): Promise<string[]> {
  const { dir, engine } = fixture();
  const outcome = await engine.checkpoint(dir, { reason: 'test' });
  if (outcome.kind !== 'created') throw new Error(`expected a new checkpoint, got ${outcome.kind}`);
  return runGit(['--git-dir', engine.gitdir, 'ls-tree', '-r', '--name-only', outcome.checkpoint.tree]).split('\n');
}

/** The tree of a new checkpoint of `dir`, or undefined when nothing changed. */
async function treeOf(service: CheckpointService): Promise<string | undefined> {
  const { dir } = fixture();
  const outcome = await service.checkpoint(dir, { reason: 'test' });
  return outcome.kind === 'created' ? outcome.checkpoint.tree : undefined;
}

/** After each step, an engine watching the folder (as a resident core) stores a new tree, the very tree a full walk stores. */
async function expectWatchAgrees(steps: readonly (() => void)[]): Promise<void> {
  const { root, environment, engine } = fixture();
  const watched = newEngine(root, environment, 'watched', true);
  try {
    expect(await treeOf(watched)).toBeDefined();
    for (const step of steps) {
      step();
      const [fromWatch, fromWalk] = [await treeOf(watched), await treeOf(engine)];
      expect(fromWatch).toBeDefined();
      expect(fromWatch).toBe(fromWalk);
    }
  } finally {
    await watched.dispose();
  }
}

/** What git keeps of the submodule: tracked files and untracked ones its rules do not ignore, prefixed as stored. */
function gitViewOfSubmodule(): string[] {
  const { dir } = fixture();
  const listed = runGit(['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: path.join(dir, 'vendor/lib'),
  });
  return listed.split('\n').map((rel) => `vendor/lib/${rel}`);
}

describe('a checkpoint of a repository with a submodule', () => {
  it("stores every file the submodule tracks and leaves out what the submodule's own rules ignore", async () => {
    const { dir } = fixture();
    writeFiles(dir, { 'vendor/lib/gen/out.txt': 'generated\n', 'vendor/lib/src/new.txt': 'untracked, not ignored\n' });
    const stored = await storedPaths();
    const inSubmodule = stored.filter((rel) => rel.startsWith('vendor/lib/'));
    expect(inSubmodule.sort()).toEqual(gitViewOfSubmodule().sort());
    expect(inSubmodule).toEqual(expect.arrayContaining(['vendor/lib/data.sqlite', 'vendor/lib/notes.tmp']));
    expect(inSubmodule).not.toContain('vendor/lib/gen/out.txt');
    expect(stored).toEqual(expect.arrayContaining(['.gitignore', '.gitmodules', 'main.txt']));
  });

  it("sees a change of the submodule's ignore rules at the next checkpoint", async () => {
    const { dir } = fixture();
    writeFiles(dir, { 'vendor/lib/gen/out.txt': 'generated\n' });
    expect(await storedPaths()).not.toContain('vendor/lib/gen/out.txt');
    writeFiles(dir, { 'vendor/lib/.gitignore': '*.log\n' });
    expect(await storedPaths()).toContain('vendor/lib/gen/out.txt');
  });

  it('stores the same through a watching core as through a full walk, as the submodule changes', async () => {
    const { dir } = fixture();
    await expectWatchAgrees([
      () => writeFiles(dir, { 'vendor/lib/gen/out.txt': 'ignored in the submodule\n', 'vendor/lib/x.tmp': 'y\n' }),
      () => writeFiles(dir, { 'vendor/lib/data.sqlite': 'more rows\n', 'vendor/lib/src/b.txt': 'b\n' }),
      () => writeFiles(dir, { 'vendor/lib/.gitignore': 'src/\n' }),
      () => rmSync(path.join(dir, 'vendor/lib/notes.tmp')),
    ]);
  });

  it('sees a change inside a submodule in a folder the watcher leaves out by name (build/)', async () => {
    const { dir, lib } = fixture();
    runGit(['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'build/lib'], { cwd: dir });
    runGit(['commit', '-q', '-m', 'lib in build'], { cwd: dir });
    await expectWatchAgrees([() => writeFiles(dir, { 'build/lib/src/a.txt': 'changed where no watch is\n' })]);
  });

  it('follows the outer rules in a submodule folder that is not checked out, as git has nothing else there', async () => {
    const { dir } = fixture();
    runGit(['submodule', 'deinit', '-q', '-f', 'vendor/lib'], { cwd: dir });
    writeFiles(dir, { 'vendor/lib/loose.tmp': 'x\n', 'vendor/lib/kept.txt': 'y\n' });
    const stored = await storedPaths();
    expect(stored).toContain('vendor/lib/kept.txt');
    expect(stored).not.toContain('vendor/lib/loose.tmp');
  });
});

describe('where the submodules are', () => {
  it('takes the gitlinks of the index, whatever .gitmodules says, and none reached through a symbolic link', async () => {
    const { dir, environment } = fixture();
    writeFiles(dir, {
      '.gitmodules': `[submodule "lib"]\n\tpath = vendor/lib\n[submodule "gone"]\n\tpath = "old/gone" # removed\n`,
    });
    mkdirSync(path.join(dir, 'links'));
    symlinkSync(dir, path.join(dir, 'links', 'up'));
    writeFileSync(path.join(dir, '.gitmodules'), '[submodule "loop"]\n\tpath = links/up\n', { flag: 'a' });
    runGit(['add', '.gitmodules', 'links/up'], { cwd: dir });
    const rules = (await new RepoRulesCache(dir, environment).current()).rules;
    expect(rules.data.nested?.map((item) => item.at)).toEqual(['vendor/lib']);
    expect(rules.pathExclusion('vendor/lib/data.sqlite', false)).toBeUndefined();
    // .gitignore, .gitmodules, main.txt and the link; the library's four files instead of its folder.
    expect(rules.trackedCount()).toBe(4 + 4);
  });

  it('a submodule folder removed from the disk leaves no stale rules behind', async () => {
    const { dir, environment } = fixture();
    const cache = new RepoRulesCache(dir, environment);
    expect((await cache.current()).rules.data.nested?.length).toBe(1);
    rmSync(path.join(dir, 'vendor', 'lib', '.git'));
    expect((await cache.current()).rules.data.nested ?? []).toEqual([]);
  });
});
