import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { runGit, writeFiles } from '../test-support/restore-fixtures';
import { restoreServiceFor } from '../restore/restore-service';

/** Review findings on submodules: each case compares what a checkpoint stores with what git itself tracks/keeps. */

let root: string;
let dir: string;
let home: string;
let lib: string;
let remove: () => Promise<void>;
let engine: CheckpointService;
const allow = ['-c', 'protocol.file.allow=always'];

const rulesEnvironment = (): { env: NodeJS.ProcessEnv; home: string } => ({
  env: { XDG_CONFIG_HOME: path.join(home, '.config') },
  home,
});

beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-submodule-review-'));
  dir = path.join(root, 'project');
  home = path.join(root, 'home');
  lib = path.join(root, 'lib');
  mkdirSync(home, { recursive: true });
  runGit(['init', '-q', lib]);
  writeFiles(lib, { 'data.sqlite': 'rows\n', 'notes.tmp': 'tracked here\n', 'src/a.txt': 'a\n' });
  runGit(['add', '-f', '-A'], { cwd: lib });
  runGit(['commit', '-q', '-m', 'lib'], { cwd: lib });
  runGit(['init', '-q', dir]);
  writeFiles(dir, { '.gitignore': '*.tmp\n', 'main.txt': 'main\n' });
  runGit(['add', '-A'], { cwd: dir });
  runGit(['commit', '-q', '-m', 'main'], { cwd: dir });
  engine = new CheckpointService({
    root: path.join(home, 'vigil', 'checkpoints'),
    logger: silentLogger,
    rulesEnvironment: rulesEnvironment(),
  });
});
afterEach(async () => {
  await engine.dispose();
  await remove();
});

async function treeOf(service: CheckpointService): Promise<string | undefined> {
  const outcome = await service.checkpoint(dir, { reason: 'test' });
  return outcome.kind === 'created' ? outcome.checkpoint.tree : undefined;
}

async function storedPaths(): Promise<string[]> {
  const tree = await treeOf(engine);
  if (tree === undefined) throw new Error('expected a new checkpoint');
  return runGit(['--git-dir', engine.gitdir, 'ls-tree', '-r', '-z', '--name-only', tree])
    .split('\0')
    .filter((rel) => rel !== '');
}

function watchingEngine(): CheckpointService {
  return new CheckpointService({
    root: path.join(home, 'watched', 'checkpoints'),
    logger: silentLogger,
    rulesEnvironment: rulesEnvironment(),
    watch: true,
    verifyEveryMs: 0,
  });
}

describe('submodule review', () => {
  it('stores the tracked files of a gitlink that .gitmodules does not name (an embedded repository git tracks)', async () => {
    // `git add` of a nested clone: git records a gitlink (mode 160000) and, like for any submodule,
    // never judges its files by the outer rules; its tracked notes.tmp and data.sqlite are tracked there.
    runGit(['clone', '-q', lib, 'vendor/lib'], { cwd: dir });
    runGit(['add', 'vendor/lib'], { cwd: dir });
    runGit(['commit', '-q', '-m', 'embedded'], { cwd: dir });
    expect(runGit(['ls-files', '-s', 'vendor/lib'], { cwd: dir })).toMatch(/^160000 /);
    const stored = await storedPaths();
    expect(stored).toEqual(expect.arrayContaining(['vendor/lib/notes.tmp', 'vendor/lib/data.sqlite']));
  });

  it('stores the same through a watching core as through a full walk for an untracked file in a submodule under build/', async () => {
    runGit([...allow, 'submodule', 'add', '-q', lib, 'build/lib'], { cwd: dir });
    runGit(['commit', '-q', '-m', 'lib in build'], { cwd: dir });
    const watched = watchingEngine();
    try {
      expect(await treeOf(watched)).toBeDefined();
      await treeOf(engine);
      // Not ignored by the submodule's rules: git status in the submodule shows it, a full walk stores it.
      writeFiles(dir, { 'build/lib/src/new.txt': 'untracked in the submodule\n' });
      expect(runGit(['status', '--porcelain'], { cwd: path.join(dir, 'build/lib') })).toContain('src/new.txt');
      const fromWalk = await treeOf(engine);
      const fromWatch = await treeOf(watched);
      expect(fromWalk).toBeDefined();
      expect(fromWatch).toBe(fromWalk);
    } finally {
      await watched.dispose();
    }
  });

  it('stores a nested submodule (a submodule of a submodule) by its own rules', async () => {
    const inner = path.join(root, 'inner');
    runGit(['init', '-q', inner]);
    writeFiles(inner, { 'deep.tmp': 'tracked deep\n', 'deep.sqlite': 'db\n' });
    runGit(['add', '-f', '-A'], { cwd: inner });
    runGit(['commit', '-q', '-m', 'inner'], { cwd: inner });
    runGit([...allow, 'submodule', 'add', '-q', inner, 'inner'], { cwd: lib });
    runGit(['commit', '-q', '-m', 'with inner'], { cwd: lib });
    runGit([...allow, 'submodule', 'add', '-q', lib, 'vendor/lib'], { cwd: dir });
    runGit([...allow, 'submodule', 'update', '-q', '--init', '--recursive'], { cwd: dir });
    runGit(['commit', '-q', '-m', 'with lib'], { cwd: dir });
    const stored = await storedPaths();
    expect(stored).toEqual(
      expect.arrayContaining(['vendor/lib/notes.tmp', 'vendor/lib/inner/deep.tmp', 'vendor/lib/inner/deep.sqlite']),
    );
  });

  it('finds a submodule whose path has characters git quotes in .gitmodules', async () => {
    const odd = 'vendor/a "q" #b';
    runGit([...allow, 'submodule', 'add', '-q', lib, odd], { cwd: dir });
    runGit(['commit', '-q', '-m', 'odd'], { cwd: dir });
    const stored = await storedPaths();
    expect(stored).toEqual(expect.arrayContaining([`${odd}/notes.tmp`]));
  });

  it("applies a submodule's rules once its folder is checked out again (rm -rf, then git submodule update)", async () => {
    runGit([...allow, 'submodule', 'add', '-q', lib, 'vendor/lib'], { cwd: dir });
    runGit(['commit', '-q', '-m', 'with lib'], { cwd: dir });
    rmSync(path.join(dir, 'vendor', 'lib'), { recursive: true, force: true });
    // The engine's first checkpoint, while the folder is gone: the rules are loaded without the submodule.
    expect(await storedPaths()).not.toContain('vendor/lib/notes.tmp');
    const before = runGit(['ls-files', '-s', '--debug'], { cwd: dir });
    runGit([...allow, 'submodule', 'update', '-q'], { cwd: dir });
    expect(runGit(['ls-files', '-s', '--debug'], { cwd: dir })).toBe(before);
    // git sees the submodule's tracked files again; so must the checkpoint.
    expect(runGit(['ls-files'], { cwd: path.join(dir, 'vendor/lib') }).split('\n')).toContain('notes.tmp');
    // A new process (a one-shot vigil checkpoint) stores them: only the long-lived engine keeps the stale list.
    const fresh = new CheckpointService({
      root: path.join(home, 'fresh', 'checkpoints'),
      logger: silentLogger,
      rulesEnvironment: rulesEnvironment(),
    });
    try {
      const outcome = await fresh.checkpoint(dir, { reason: 'fresh' });
      if (outcome.kind !== 'created') throw new Error('expected a checkpoint');
      expect(runGit(['--git-dir', fresh.gitdir, 'ls-tree', '-r', '--name-only', outcome.checkpoint.tree])).toContain(
        'vendor/lib/notes.tmp',
      );
    } finally {
      await fresh.dispose();
    }
    expect(await storedPaths()).toEqual(expect.arrayContaining(['vendor/lib/notes.tmp', 'vendor/lib/data.sqlite']));
  });

  it("applies a submodule's rules once its folder is back (moved away, then back, no git file touched)", async () => {
    runGit([...allow, 'submodule', 'add', '-q', lib, 'vendor/lib'], { cwd: dir });
    runGit(['commit', '-q', '-m', 'with lib'], { cwd: dir });
    const away = path.join(root, 'away');
    renameSync(path.join(dir, 'vendor', 'lib'), away);
    // The engine's first look at the rules finds no submodule folder.
    expect(await storedPaths()).not.toContain('vendor/lib/notes.tmp');
    renameSync(away, path.join(dir, 'vendor', 'lib'));
    // git sees the submodule's tracked files again; so must the checkpoint.
    expect(runGit(['ls-files'], { cwd: path.join(dir, 'vendor/lib') }).split('\n')).toContain('notes.tmp');
    expect(await storedPaths()).toEqual(expect.arrayContaining(['vendor/lib/notes.tmp', 'vendor/lib/data.sqlite']));
  });

  it("restores a submodule's tracked files that the outer rules would leave out", async () => {
    runGit([...allow, 'submodule', 'add', '-q', lib, 'vendor/lib'], { cwd: dir });
    runGit(['commit', '-q', '-m', 'with lib'], { cwd: dir });
    const taken = await engine.checkpoint(dir, { reason: 'before' });
    if (taken.kind !== 'created') throw new Error('expected a checkpoint');
    writeFiles(dir, { 'vendor/lib/notes.tmp': 'agent broke it\n' });
    rmSync(path.join(dir, 'vendor/lib/data.sqlite'));
    const restore = restoreServiceFor(engine, path.join(home, 'vigil', 'checkpoints'), silentLogger);
    await restore.restore(dir, taken.checkpoint.id);
    expect(readFileSync(path.join(dir, 'vendor/lib/notes.tmp'), 'utf8')).toBe('tracked here\n');
    expect(existsSync(path.join(dir, 'vendor/lib/data.sqlite'))).toBe(true);
  });

  it("sees a submodule's index change (git rm --cached) through a watching core as a full walk does", async () => {
    runGit([...allow, 'submodule', 'add', '-q', lib, 'vendor/lib'], { cwd: dir });
    runGit(['commit', '-q', '-m', 'with lib'], { cwd: dir });
    const watched = watchingEngine();
    try {
      await treeOf(watched);
      await treeOf(engine);
      runGit(['rm', '-q', '--cached', 'data.sqlite'], { cwd: path.join(dir, 'vendor/lib') });
      const fromWalk = await treeOf(engine);
      const fromWatch = await treeOf(watched);
      expect(fromWalk).toBeDefined();
      expect(fromWatch).toBe(fromWalk);
    } finally {
      await watched.dispose();
    }
  });

  it('stores the same through a watching core as a walk for a submodule under node_modules/', async () => {
    runGit([...allow, 'submodule', 'add', '-q', lib, 'node_modules/lib'], { cwd: dir });
    runGit(['commit', '-q', '-m', 'lib in node_modules'], { cwd: dir });
    const watched = watchingEngine();
    try {
      await treeOf(watched);
      expect(await storedPaths()).toEqual(expect.arrayContaining(['node_modules/lib/notes.tmp']));
      writeFiles(dir, { 'node_modules/lib/notes.tmp': 'changed\n', 'node_modules/lib/src/new.txt': 'new\n' });
      const fromWalk = await treeOf(engine);
      const fromWatch = await treeOf(watched);
      expect(fromWalk).toBeDefined();
      expect(fromWatch).toBe(fromWalk);
    } finally {
      await watched.dispose();
    }
  });

  it('finds a submodule whose path ends in a space (git writes it quoted: path = "lib ")', async () => {
    runGit([...allow, 'submodule', 'add', '-q', lib, 'lib '], { cwd: dir });
    runGit(['commit', '-q', '-m', 'trailing space'], { cwd: dir });
    expect(readFileSync(path.join(dir, '.gitmodules'), 'utf8')).toContain('path = "lib "');
    const stored = await storedPaths();
    expect(stored).toEqual(expect.arrayContaining(['lib /notes.tmp', 'lib /data.sqlite']));
  });

  it('stores a submodule inside a folder the outer .gitignore ignores, by its own rules, watched as walked', async () => {
    writeFiles(dir, { '.gitignore': '*.tmp\nvendor/\n' });
    runGit([...allow, 'submodule', 'add', '-q', '-f', lib, 'vendor/lib'], { cwd: dir });
    runGit(['add', '.gitignore'], { cwd: dir });
    runGit(['commit', '-q', '-m', 'lib in an ignored folder'], { cwd: dir });
    const watched = watchingEngine();
    try {
      await treeOf(watched);
      const stored = await storedPaths();
      expect(stored).toEqual(expect.arrayContaining(['vendor/lib/notes.tmp', 'vendor/lib/data.sqlite']));
      writeFiles(dir, { 'vendor/lib/src/new.txt': 'new\n', 'vendor/other.txt': 'ignored by the outer rules\n' });
      const fromWalk = await treeOf(engine);
      const fromWatch = await treeOf(watched);
      expect(fromWalk).toBeDefined();
      expect(fromWatch).toBe(fromWalk);
      const listed = runGit(['--git-dir', engine.gitdir, 'ls-tree', '-r', '--name-only', fromWalk ?? '']).split('\n');
      expect(listed).toContain('vendor/lib/src/new.txt');
      expect(listed).not.toContain('vendor/other.txt');
    } finally {
      await watched.dispose();
    }
  });

  it('a whole restore removes a file added in a submodule that the submodule stores (as the diff shows it added)', async () => {
    runGit([...allow, 'submodule', 'add', '-q', lib, 'vendor/lib'], { cwd: dir });
    runGit(['commit', '-q', '-m', 'with lib'], { cwd: dir });
    const taken = await engine.checkpoint(dir, { reason: 'before' });
    if (taken.kind !== 'created') throw new Error('expected a checkpoint');
    writeFiles(dir, { 'vendor/lib/new.tmp': 'added by the agent\n', 'outer.tmp': 'ignored outside\n' });
    const restore = restoreServiceFor(engine, path.join(home, 'vigil', 'checkpoints'), silentLogger);
    await restore.restore(dir, taken.checkpoint.id);
    expect(existsSync(path.join(dir, 'vendor/lib/new.tmp'))).toBe(false);
    expect(existsSync(path.join(dir, 'outer.tmp'))).toBe(true);
  });
});
