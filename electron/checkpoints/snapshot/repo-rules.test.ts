import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { runGit } from '../test-support/restore-fixtures';
import { makeRulesRepo } from '../test-support/rules-repo';
import { DirectoryRules } from './directory-rules';
import { RepoRulesCache, type RulesEnvironment } from './repo-rules';

/** Which ignore files become rules, and a head start's rules handed to the engine instead of read again. */

let root: string;
let dir: string;
let remove: () => Promise<void>;
let environment: RulesEnvironment;

beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-repo-rules-'));
  ({ dir, environment } = makeRulesRepo(root));
  writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  runGit(['add', '-A'], { cwd: dir });
});
afterEach(async () => {
  await remove();
});

describe('ignore files that hold no pattern', () => {
  it("leaves out git's default info/exclude (comments only), and takes it up once it holds a pattern", async () => {
    const cache = new RepoRulesCache(dir, environment);
    const before = await cache.current();
    expect(before.rules.data.isRepository).toBe(true);
    expect(before.rules.data.sources).toEqual([]);
    writeFileSync(path.join(dir, '.git', 'info', 'exclude'), '# still a comment\n\n   \n\\#literal\n');
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
    const headStart = new RepoRulesCache(dir, environment);
    const read = await headStart.current();
    const rules = new DirectoryRules(silentLogger, environment, headStart);
    expect((await rules.current(dir)).rules).toBe(read.rules);
    writeFileSync(path.join(dir, 'b.txt'), 'b\n');
    runGit(['add', '-A'], { cwd: dir });
    const later = (await rules.current(dir)).rules;
    expect(later).not.toBe(read.rules);
    expect(later.data.tracked).toEqual(['a.txt', 'b.txt']);
  });

  it('are read again under another environment (git settings from elsewhere)', async () => {
    const headStart = new RepoRulesCache(dir, { env: process.env });
    const read = await headStart.current();
    const rules = new DirectoryRules(silentLogger, environment, headStart);
    const own = (await rules.current(dir)).rules;
    expect(own).not.toBe(read.rules);
    expect(own.data.tracked).toEqual(['a.txt']);
  });
});
