import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runGit } from '../test-support/restore-fixtures';
import { useRulesRepo } from '../test-support/rules-repo';
import { RepoRulesCache } from './repo-rules';

/**
 * Tracked files are stored whatever their name, whatever form git writes its index in.
 * A file `git add -f` tracked below an ignored `node_modules/` must be stored, with an index that
 * git writes without its trailing hash (`index.skipHash`, which `feature.manyFiles` turns on
 * since git 2.40: twenty zero bytes where the SHA-1 was), and with a split index (`core.splitIndex`:
 * most entries in `sharedindex.<id>`, named by the index's `link` extension; more in
 * `split-index-rules.test.ts`).
 */

const repo = useRulesRepo('vigil-index-forms-');

beforeEach(() => {
  mkdirSync(path.join(repo.dir, 'node_modules', 'patched'), { recursive: true });
  writeFileSync(path.join(repo.dir, 'node_modules', 'patched', 'index.js'), 'vendored and patched\n');
  writeFileSync(path.join(repo.dir, '.gitignore'), 'node_modules/\n');
  writeFileSync(path.join(repo.dir, 'a.txt'), 'a\n');
  runGit(['add', '-f', '.'], { cwd: repo.dir });
});

async function verdictOfTrackedFile(): Promise<{ reason: string | undefined; warnings: readonly string[] }> {
  const loaded = await new RepoRulesCache(repo.dir, repo.environment).current();
  return {
    reason: loaded.rules.pathExclusion('node_modules/patched/index.js', false),
    warnings: loaded.warnings,
  };
}

describe('a tracked file below an ignored folder', () => {
  it('is stored with a plain index (the control)', async () => {
    expect(await verdictOfTrackedFile()).toEqual({ reason: undefined, warnings: [] });
  });

  it('is stored when git wrote the index without its trailing hash (index.skipHash, feature.manyFiles)', async () => {
    const indexFile = path.join(repo.dir, '.git', 'index');
    const bytes = readFileSync(indexFile);
    // What git 2.40+ writes with index.skipHash=true: the same bytes, the trailing hash left as the null id.
    bytes.fill(0, bytes.length - 20);
    writeFileSync(indexFile, bytes);
    expect(await verdictOfTrackedFile()).toEqual({ reason: undefined, warnings: [] });
  });

  it('is stored with a split index (core.splitIndex: its shared index read and merged)', async () => {
    runGit(['update-index', '--split-index'], { cwd: repo.dir });
    writeFileSync(path.join(repo.dir, 'b.txt'), 'b\n');
    runGit(['add', 'b.txt'], { cwd: repo.dir });
    expect(runGit(['ls-files'], { cwd: repo.dir }).split('\n')).toContain('node_modules/patched/index.js');
    expect(await verdictOfTrackedFile()).toEqual({ reason: undefined, warnings: [] });
  });
});
