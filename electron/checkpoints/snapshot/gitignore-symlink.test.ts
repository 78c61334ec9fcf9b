import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runGit } from '../test-support/restore-fixtures';
import { useRulesRepo } from '../test-support/rules-repo';
import { RepoRulesCache } from './repo-rules';

/**
 * untracked files are stored by git's ignore rules, as git applies them. git (2.32 and
 * later) does not follow a `.gitignore` in the work tree that is a symlink ("unable to access
 * '.gitignore': Too many levels of symbolic links"): its patterns ignore nothing. Vigil follows it,
 * so a file git sees as untracked and not ignored is left out of the checkpoint.
 */

const repo = useRulesRepo('vigil-gitignore-symlink-');

beforeEach(() => {
  writeFileSync(path.join(repo.dir, 'a.txt'), 'a\n');
  runGit(['add', 'a.txt'], { cwd: repo.dir });
});

/** Whether git itself ignores `rel` (git check-ignore, with git's own stderr warning dropped). */
function isIgnoredByGit(rel: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', rel], { cwd: repo.dir, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a .gitignore in the work tree that is a symlink', () => {
  it('ignores what git ignores: nothing', async () => {
    const outside = path.join(repo.root, 'shared-rules');
    writeFileSync(outside, '*.data\nsecrets/\n');
    symlinkSync(outside, path.join(repo.dir, '.gitignore'));
    mkdirSync(path.join(repo.dir, 'sub'));
    symlinkSync(outside, path.join(repo.dir, 'sub', '.gitignore'));
    writeFileSync(path.join(repo.dir, 'run.data'), 'kept by git\n');
    writeFileSync(path.join(repo.dir, 'sub', 'deep.data'), 'kept by git\n');
    const rules = (await new RepoRulesCache(repo.dir, repo.environment).current()).rules;
    for (const rel of ['run.data', 'sub/deep.data']) {
      const isIgnored = isIgnoredByGit(rel);
      expect(isIgnored, `git on ${rel}`).toBe(false);
      expect(rules.pathExclusion(rel, false), `Vigil on ${rel}`).toBeUndefined();
    }
  });
});
