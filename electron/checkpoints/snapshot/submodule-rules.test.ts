import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGit, writeFiles } from '../test-support/restore-fixtures';
import {
  addSubmodule,
  expectWatchAgrees,
  storedPaths as storedPathsOf,
  useSubmoduleProject,
} from '../test-support/submodule-project';
import { RepoRulesCache } from './repo-rules';

/**
 * A checkpoint of a repository holding submodules stores what git tracks in each submodule, and
 * judges the submodule's untracked files by the submodule's own ignore rules (git never applies the
 * outer repository's inside a submodule). Before, a submodule's files followed the outer
 * repository's rules: a tracked `*.sqlite` in it (a built-in exclusion) or a file the outer
 * `.gitignore` covers was silently left out of every checkpoint.
 */

const fixture = useSubmoduleProject('vigil-submodule-rules-', {
  libFiles: { '.gitignore': 'gen/\n' },
  at: 'vendor/lib',
});

/** The paths of a new checkpoint of the project. */
function storedPaths(): Promise<string[]> {
  return storedPathsOf(fixture());
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
    await expectWatchAgrees(fixture(), [
      () => writeFiles(dir, { 'vendor/lib/gen/out.txt': 'ignored in the submodule\n', 'vendor/lib/x.tmp': 'y\n' }),
      () => writeFiles(dir, { 'vendor/lib/data.sqlite': 'more rows\n', 'vendor/lib/src/b.txt': 'b\n' }),
      () => writeFiles(dir, { 'vendor/lib/.gitignore': 'src/\n' }),
      () => rmSync(path.join(dir, 'vendor/lib/notes.tmp')),
    ]);
  });

  it('sees a change inside a submodule in a folder the watcher leaves out by name (build/)', async () => {
    const { dir } = fixture();
    addSubmodule(fixture(), 'build/lib');
    await expectWatchAgrees(fixture(), [
      () => writeFiles(dir, { 'build/lib/src/a.txt': 'changed where no watch is\n' }),
    ]);
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
