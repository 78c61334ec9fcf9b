import { existsSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { dirHash, hashObject } from '../../git-store';
import { restoreServiceFor } from '../restore/restore-service';
import { expectedByGit, makeTrackedOddsClone } from '../test-support/nested-clones';
import { runGit, writeFiles } from '../test-support/restore-fixtures';
import {
  allowFileProtocol,
  expectWatchAgrees,
  listedPaths,
  projectEngine,
  storedPaths,
  treeOf,
  useSubmoduleProject,
} from '../test-support/submodule-project';
import { DirectoryRules } from './directory-rules';
import { TrackedDirectory } from './tracked-directory';

/**
 * Repositories below the checkpointed folder that are not its submodules (a folder of clones, a
 * scratch clone inside a repository) are judged by their own index and ignore files, as git does.
 */

const project = useSubmoduleProject('vigil-nested-repos-');

/** A folder that is no repository (`<root>/ws`) holding the brief's clone at `a` and a clone of the library at `b`. */
function makeWorkspace(): string {
  const { root, lib } = project();
  const ws = path.join(root, 'ws');
  makeTrackedOddsClone(path.join(ws, 'a'));
  runGit(['clone', '-q', lib, path.join(ws, 'b')]);
  writeFiles(ws, { 'top.txt': 'top\n', 'b/untracked.txt': 'kept\n', 'b/.gitignore': 'gen/\n', 'b/gen/g.txt': 'g\n' });
  return ws;
}

/** The paths a new checkpoint of `dir` stores, by a fresh engine (a one-shot process) on the store `name`. */
async function storedByFreshEngine(dir: string, name: string): Promise<string[]> {
  const engine = projectEngine(project(), name, false);
  try {
    const tree = await treeOf(engine, dir);
    if (tree === undefined) throw new Error('expected a new checkpoint');
    return listedPaths(engine, tree).sort();
  } finally {
    await engine.dispose();
  }
}

describe('repositories inside the checkpointed folder', () => {
  it('stores what each clone of a folder that is no repository tracks, whatever the names (the /tmp/mr case)', async () => {
    const ws = makeWorkspace();
    const stored = await storedByFreshEngine(ws, 'one');
    expect(stored).toEqual(expect.arrayContaining(['a/notes.log', 'a/db.sqlite', 'a/logo.png', 'a/build/out.js']));
    expect(stored).toEqual(['top.txt', ...expectedByGit(ws, ['a', 'b'], false)].sort());
    // The next process finds the clones remembered, and stores the same tree.
    writeFiles(ws, { 'top.txt': 'changed\n' });
    expect(await storedByFreshEngine(ws, 'one')).toEqual(stored);
  });

  it('stores a plain clone inside a repository by its own rules, not as the outer repository sees it', async () => {
    const { dir, lib } = project();
    runGit(['clone', '-q', lib, 'scratch'], { cwd: dir });
    writeFiles(dir, { 'scratch/new.txt': 'new\n', 'outer.tmp': 'ignored by the outer rules\n' });
    const stored = (await storedPaths(project())).sort();
    // The outer .gitignore says *.tmp: the clone's tracked notes.tmp is the clone's to judge.
    expect(stored).toEqual(expect.arrayContaining(['scratch/notes.tmp', 'scratch/data.sqlite']));
    expect(stored).toEqual(expectedByGit(dir, ['scratch']));
  });

  it("brings back a clone's tracked logo.png an agent deleted", async () => {
    const ws = makeWorkspace();
    const { storeRoot, engine } = project();
    const taken = await engine.checkpoint(ws, { reason: 'before the agent' });
    if (taken.kind !== 'created') throw new Error('expected a checkpoint');
    rmSync(path.join(ws, 'a', 'logo.png'));
    await restoreServiceFor(engine, storeRoot, silentLogger).restore(ws, taken.checkpoint.id);
    expect(readFileSync(path.join(ws, 'a', 'logo.png'), 'utf8')).toBe('png');
  });

  it('judges a clone inside a clone, and a clone inside a submodule, by their own rules', async () => {
    const { dir, root, lib } = project();
    runGit([...allowFileProtocol, 'submodule', 'add', '-q', lib, 'vendor/lib'], { cwd: dir });
    runGit(['commit', '-q', '-m', 'lib'], { cwd: dir });
    makeTrackedOddsClone(path.join(dir, 'vendor', 'lib', 'inner'));
    runGit(['clone', '-q', lib, path.join(root, 'project', 'scratch')]);
    makeTrackedOddsClone(path.join(dir, 'scratch', 'deeper'));
    const stored = (await storedPaths(project())).sort();
    expect(stored).toEqual(expect.arrayContaining(['vendor/lib/inner/logo.png', 'scratch/deeper/build/out.js']));
    expect(stored).toEqual(expectedByGit(dir, ['scratch', 'scratch/deeper', 'vendor/lib', 'vendor/lib/inner']));
  });

  it('keeps storing what the outer index still tracks in a folder that became a repository of its own', async () => {
    const { dir } = project();
    writeFiles(dir, { 'deep/build/o.js': 'o\n', 'deep/a.tmp': 'a\n' });
    runGit(['add', '-f', '-A'], { cwd: dir });
    runGit(['commit', '-q', '-m', 'deep'], { cwd: dir });
    runGit(['init', '-q', path.join(dir, 'deep')]);
    expect(await storedPaths(project())).toEqual(expect.arrayContaining(['deep/build/o.js', 'deep/a.tmp']));
  });

  it('leaves a folder whose .git names no git directory to the rules around it, with a warning naming the file', async () => {
    const { dir, engine } = project();
    writeFiles(dir, { 'broken/keep.txt': 'k\n', 'broken/pic.png': 'png', 'broken/x.tmp': 'tmp\n' });
    writeFileSync(path.join(dir, 'broken', '.git'), 'gitdir: ../nowhere\n');
    const stored = await storedPaths(project());
    expect(stored).toContain('broken/keep.txt');
    expect(stored).not.toContain('broken/x.tmp');
    const { warnings } = await engine.storeRules(dir);
    expect(warnings.join('\n')).toContain(path.join(dir, 'broken', '.git'));
  });

  it('reads no .git file larger than git does (a huge sparse one an agent made failed every checkpoint)', async () => {
    const { dir, engine } = project();
    writeFiles(dir, { 'huge/keep.txt': 'k\n', 'huge/x.tmp': 'tmp\n' });
    // 600 MiB of nothing: no disk used, but more than a string can hold once read whole.
    writeFileSync(path.join(dir, 'huge', '.git'), '');
    truncateSync(path.join(dir, 'huge', '.git'), 600 * 2 ** 20);
    const stored = await storedPaths(project());
    expect(stored).toContain('huge/keep.txt');
    expect(stored).not.toContain('huge/x.tmp');
    const { warnings } = await engine.storeRules(dir);
    expect(warnings.join('\n')).toContain(path.join(dir, 'huge', '.git'));
  });

  it("checkpoints a folder whose clone's .git/config is too large to read (a huge sparse one)", async () => {
    const { dir } = project();
    makeTrackedOddsClone(path.join(dir, 'clone'));
    truncateSync(path.join(dir, 'clone', '.git', 'config'), 600 * 2 ** 20);
    expect(await storedPaths(project())).toEqual(expect.arrayContaining(['clone/logo.png', 'clone/notes.log']));
  });

  it("walks again when a plan took the repositories a snapshot's walk found after the snapshot read its rules", async () => {
    const ws = makeWorkspace();
    const rules = new DirectoryRules(silentLogger, project().environment);
    const tracked = new TrackedDirectory(ws, dirHash(ws));
    // As a snapshot starts: no clone known yet, so the clone's tracked logo.png follows the built-in names.
    const used = await rules.forSnapshot(tracked);
    expect(used.pathExclusion('a/logo.png', false)).toBeDefined();
    // Meanwhile a plan's walk of the whole folder takes the clones (restore-service.ts, `plan`).
    await rules.current(ws, ['a', 'b']);
    // The snapshot's walk found the same ones: it must walk again by the rules built with them.
    const rebuilt = await rules.rediscoverer(tracked)(['a', 'b'], used);
    expect(rebuilt).toBeDefined();
    expect(rebuilt?.pathExclusion('a/logo.png', false)).toBeUndefined();
  });

  it("a resident core's warm-up (no checkpoint yet) stores the clones' tracked files already", async () => {
    const ws = makeWorkspace();
    const watched = projectEngine(project(), 'warmed', true);
    try {
      await watched.warmUp(ws);
      // The blob of a/logo.png ('png'): the first checkpoint then only looks at what changed since.
      const oid = hashObject('blob', Buffer.from('png'));
      expect(() => runGit(['--git-dir', watched.gitdir, 'cat-file', '-e', oid])).not.toThrow();
      const first = await treeOf(watched, ws);
      expect(listedPaths(watched, first ?? '')).toEqual(expect.arrayContaining(['a/logo.png', 'a/build/out.js']));
    } finally {
      await watched.dispose();
    }
  });

  it('names what judges each part in the status', async () => {
    const ws = makeWorkspace();
    const { engine } = project();
    await treeOf(engine, ws);
    const status = await engine.status(ws);
    const rules = status.directories.find((item) => item.dir === ws)?.rules;
    expect(rules?.nested).toEqual([
      { at: 'a', kind: 'clone', tracked: 5 },
      { at: 'b', kind: 'clone', tracked: 3 },
    ]);
  });

  it('stores the same through a watching core as a walk when a .git appears in, or leaves, an existing folder', async () => {
    const { dir } = project();
    writeFiles(dir, { 'tools/run.tmp': 'tmp\n', 'tools/logo.png': 'png' });
    runGit(['add', '-A'], { cwd: dir });
    runGit(['commit', '-q', '-m', 'tools'], { cwd: dir });
    const tools = path.join(dir, 'tools');
    const last = await expectWatchAgrees(project(), [
      () => {
        writeFiles(dir, { 'tools/new.tmp': 'new\n' });
        runGit(['init', '-q', tools]);
        runGit(['add', '-f', 'new.tmp'], { cwd: tools });
      },
      () => {
        writeFiles(tools, { 'more.tmp': 'more\n' });
        runGit(['add', '-f', 'more.tmp'], { cwd: tools });
        runGit(['commit', '-q', '-m', 'in tools'], { cwd: tools });
      },
      () => rmSync(path.join(tools, '.git'), { recursive: true, force: true }),
    ]);
    expect(existsSync(path.join(tools, '.git'))).toBe(false);
    expect(listedPaths(project().engine, last)).not.toContain('tools/new.tmp');
  });
});
