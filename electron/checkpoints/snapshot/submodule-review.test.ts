import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { runGit, writeFiles } from '../test-support/restore-fixtures';
import {
  addSubmodule,
  allowFileProtocol,
  expectWatchAgrees,
  projectEngine,
  listedPaths,
  storedPaths as storedPathsOf,
  treeOf,
  useSubmoduleProject,
} from '../test-support/submodule-project';
import { restoreServiceFor } from '../restore/restore-service';

/** Review findings on submodules: each case compares what a checkpoint stores with what git itself tracks/keeps. */

const project = useSubmoduleProject('vigil-submodule-review-');

/** The paths of a new checkpoint of the project. */
function storedPaths(): Promise<string[]> {
  return storedPathsOf(project());
}

describe('submodule review', () => {
  it('stores the tracked files of a gitlink that .gitmodules does not name (an embedded repository git tracks)', async () => {
    const { dir, lib } = project();
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
    const { dir } = project();
    addSubmodule(project(), 'build/lib');
    await expectWatchAgrees(project(), [
      () => {
        // Not ignored by the submodule's rules: git status in the submodule shows it, a full walk stores it.
        writeFiles(dir, { 'build/lib/src/new.txt': 'untracked in the submodule\n' });
        expect(runGit(['status', '--porcelain'], { cwd: path.join(dir, 'build/lib') })).toContain('src/new.txt');
      },
    ]);
  });

  it('stores a nested submodule (a submodule of a submodule) by its own rules', async () => {
    const { dir, lib, root } = project();
    const inner = path.join(root, 'inner');
    runGit(['init', '-q', inner]);
    writeFiles(inner, { 'deep.tmp': 'tracked deep\n', 'deep.sqlite': 'db\n' });
    runGit(['add', '-f', '-A'], { cwd: inner });
    runGit(['commit', '-q', '-m', 'inner'], { cwd: inner });
    runGit([...allowFileProtocol, 'submodule', 'add', '-q', inner, 'inner'], { cwd: lib });
    runGit(['commit', '-q', '-m', 'with inner'], { cwd: lib });
    runGit([...allowFileProtocol, 'submodule', 'add', '-q', lib, 'vendor/lib'], { cwd: dir });
    runGit([...allowFileProtocol, 'submodule', 'update', '-q', '--init', '--recursive'], { cwd: dir });
    runGit(['commit', '-q', '-m', 'with lib'], { cwd: dir });
    const stored = await storedPaths();
    expect(stored).toEqual(
      expect.arrayContaining(['vendor/lib/notes.tmp', 'vendor/lib/inner/deep.tmp', 'vendor/lib/inner/deep.sqlite']),
    );
  });

  it('finds a submodule whose path has characters git quotes in .gitmodules', async () => {
    const odd = 'vendor/a "q" #b';
    addSubmodule(project(), odd);
    const stored = await storedPaths();
    expect(stored).toEqual(expect.arrayContaining([`${odd}/notes.tmp`]));
  });

  it("applies a submodule's rules once its folder is checked out again (rm -rf, then git submodule update)", async () => {
    const { dir } = project();
    addSubmodule(project(), 'vendor/lib');
    rmSync(path.join(dir, 'vendor', 'lib'), { recursive: true, force: true });
    // The engine's first checkpoint, while the folder is gone: the rules are loaded without the submodule.
    expect(await storedPaths()).not.toContain('vendor/lib/notes.tmp');
    const before = runGit(['ls-files', '-s', '--debug'], { cwd: dir });
    runGit([...allowFileProtocol, 'submodule', 'update', '-q'], { cwd: dir });
    expect(runGit(['ls-files', '-s', '--debug'], { cwd: dir })).toBe(before);
    // git sees the submodule's tracked files again; so must the checkpoint.
    expect(runGit(['ls-files'], { cwd: path.join(dir, 'vendor/lib') }).split('\n')).toContain('notes.tmp');
    // A new process (a one-shot vigil checkpoint) stores them: only the long-lived engine keeps the stale list.
    const fresh = projectEngine(project(), 'fresh', false);
    try {
      const tree = await treeOf(fresh, dir);
      expect(tree).toBeDefined();
      expect(listedPaths(fresh, tree ?? '')).toContain('vendor/lib/notes.tmp');
    } finally {
      await fresh.dispose();
    }
    expect(await storedPaths()).toEqual(expect.arrayContaining(['vendor/lib/notes.tmp', 'vendor/lib/data.sqlite']));
  });

  it("applies a submodule's rules once its folder is back (moved away, then back, no git file touched)", async () => {
    const { dir, root } = project();
    addSubmodule(project(), 'vendor/lib');
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
    const { dir, engine, storeRoot } = project();
    addSubmodule(project(), 'vendor/lib');
    const taken = await engine.checkpoint(dir, { reason: 'before' });
    if (taken.kind !== 'created') throw new Error('expected a checkpoint');
    writeFiles(dir, { 'vendor/lib/notes.tmp': 'agent broke it\n' });
    rmSync(path.join(dir, 'vendor/lib/data.sqlite'));
    const restore = restoreServiceFor(engine, storeRoot, silentLogger);
    await restore.restore(dir, taken.checkpoint.id);
    expect(readFileSync(path.join(dir, 'vendor/lib/notes.tmp'), 'utf8')).toBe('tracked here\n');
    expect(existsSync(path.join(dir, 'vendor/lib/data.sqlite'))).toBe(true);
  });

  it("sees a submodule's index change (git rm --cached) through a watching core as a full walk does", async () => {
    const { dir } = project();
    addSubmodule(project(), 'vendor/lib');
    await storedPaths();
    await expectWatchAgrees(project(), [
      () => runGit(['rm', '-q', '--cached', 'data.sqlite'], { cwd: path.join(dir, 'vendor/lib') }),
    ]);
  });

  it('stores the same through a watching core as a walk for a submodule under node_modules/', async () => {
    const { dir } = project();
    addSubmodule(project(), 'node_modules/lib');
    expect(await storedPaths()).toEqual(expect.arrayContaining(['node_modules/lib/notes.tmp']));
    await expectWatchAgrees(project(), [
      () => writeFiles(dir, { 'node_modules/lib/notes.tmp': 'changed\n', 'node_modules/lib/src/new.txt': 'new\n' }),
    ]);
  });

  it('finds a submodule whose path ends in a space (git writes it quoted: path = "lib ")', async () => {
    const { dir } = project();
    addSubmodule(project(), 'lib ');
    expect(readFileSync(path.join(dir, '.gitmodules'), 'utf8')).toContain('path = "lib "');
    const stored = await storedPaths();
    expect(stored).toEqual(expect.arrayContaining(['lib /notes.tmp', 'lib /data.sqlite']));
  });

  it('stores a submodule inside a folder the outer .gitignore ignores, by its own rules, watched as walked', async () => {
    const { dir } = project();
    writeFiles(dir, { '.gitignore': '*.tmp\nvendor/\n' });
    runGit(['add', '.gitignore'], { cwd: dir });
    addSubmodule(project(), 'vendor/lib', '-f');
    const stored = await storedPaths();
    expect(stored).toEqual(expect.arrayContaining(['vendor/lib/notes.tmp', 'vendor/lib/data.sqlite']));
    const tree = await expectWatchAgrees(project(), [
      () => writeFiles(dir, { 'vendor/lib/src/new.txt': 'new\n', 'vendor/other.txt': 'ignored by the outer rules\n' }),
    ]);
    const listed = listedPaths(project().engine, tree);
    expect(listed).toContain('vendor/lib/src/new.txt');
    expect(listed).not.toContain('vendor/other.txt');
  });

  it('a whole restore removes a file added in a submodule that the submodule stores (as the diff shows it added)', async () => {
    const { dir, engine, storeRoot } = project();
    addSubmodule(project(), 'vendor/lib');
    const taken = await engine.checkpoint(dir, { reason: 'before' });
    if (taken.kind !== 'created') throw new Error('expected a checkpoint');
    writeFiles(dir, { 'vendor/lib/new.tmp': 'added by the agent\n', 'outer.tmp': 'ignored outside\n' });
    const restore = restoreServiceFor(engine, storeRoot, silentLogger);
    await restore.restore(dir, taken.checkpoint.id);
    expect(existsSync(path.join(dir, 'vendor/lib/new.tmp'))).toBe(false);
    expect(existsSync(path.join(dir, 'outer.tmp'))).toBe(true);
  });
});
