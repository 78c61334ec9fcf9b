import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { runGit } from '../test-support/restore-fixtures';
import { useRulesRepo } from '../test-support/rules-repo';
import { DirectoryRules } from './directory-rules';
import { RepoRulesCache } from './repo-rules';

/** Which ignore files become rules, and a head start's rules handed to the engine instead of read again. */

const repo = useRulesRepo('vigil-repo-rules-');

beforeEach(() => {
  writeFileSync(path.join(repo.dir, 'a.txt'), 'a\n');
  runGit(['add', '-A'], { cwd: repo.dir });
});

describe('ignore files that hold no pattern', () => {
  it("leaves out git's default info/exclude (comments only), and takes it up once it holds a pattern", async () => {
    const cache = new RepoRulesCache(repo.dir, repo.environment);
    const before = await cache.current();
    expect(before.rules.data.isRepository).toBe(true);
    expect(before.rules.data.sources).toEqual([]);
    writeFileSync(path.join(repo.dir, '.git', 'info', 'exclude'), '# still a comment\n\n   \n\\#literal\n');
    const after = await cache.current();
    expect(after.rules.data.sources.map((source) => source.patterns)).toEqual([
      '# still a comment\n\n   \n\\#literal\n',
    ]);
    expect(after.rules.fileExclusion('#literal', '#literal')).toBe('excluded');
    expect(after.rules.key).not.toBe(before.rules.key);
  });
});

describe('a head start’s rules', () => {
  it('are the engine’s own while nothing they come from changed', async () => {
    const headStart = new RepoRulesCache(repo.dir, repo.environment);
    const read = await headStart.current();
    const rules = new DirectoryRules(silentLogger, repo.environment, headStart);
    expect((await rules.current(repo.dir)).rules).toBe(read.rules);
    writeFileSync(path.join(repo.dir, 'b.txt'), 'b\n');
    runGit(['add', '-A'], { cwd: repo.dir });
    const later = (await rules.current(repo.dir)).rules;
    expect(later).not.toBe(read.rules);
    expect(later.data.tracked).toEqual(['a.txt', 'b.txt']);
  });

  it('are read again under another environment (git settings from elsewhere)', async () => {
    const headStart = new RepoRulesCache(repo.dir, { env: process.env });
    const read = await headStart.current();
    const rules = new DirectoryRules(silentLogger, repo.environment, headStart);
    const own = (await rules.current(repo.dir)).rules;
    expect(own).not.toBe(read.rules);
    expect(own.data.tracked).toEqual(['a.txt']);
  });
});
