import { copyFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { runGit } from '../test-support/restore-fixtures';
import { RepoRulesCache, type RulesEnvironment } from './repo-rules';

/**
 * A change made while the rules are being read must be seen by the next read. The cache
 * takes its fingerprint of the index and the ignore files after the load, so a change that lands
 * between the load's read and that fingerprint is taken as already read: the rules stay stale until
 * something else changes. Here the index is swapped in (by rename, as git writes it) at a different
 * point of the read in each round; the next read must always see it.
 */

let root: string;
let dir: string;
let remove: () => Promise<void>;
let environment: RulesEnvironment;

beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-rules-race-'));
  dir = path.join(root, 'project');
  const home = path.join(root, 'home');
  mkdirSync(home, { recursive: true });
  environment = { env: { XDG_CONFIG_HOME: path.join(home, '.config') }, home };
  runGit(['init', '-q', dir]);
  writeFileSync(path.join(dir, '.gitignore'), 'build/\n');
  mkdirSync(path.join(dir, 'build'));
  writeFileSync(path.join(dir, 'build', 'out.js'), 'shipped\n');
  writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  runGit(['add', '.gitignore', 'a.txt'], { cwd: dir });
});
afterEach(async () => {
  await remove();
});

describe('an index swapped in while the rules are read (git add -f build/out.js, build/ ignored)', () => {
  it('is always seen by the next read, wherever in the read it lands', async () => {
    const indexFile = path.join(dir, '.git', 'index');
    const without = path.join(root, 'index-without');
    const withFile = path.join(root, 'index-with');
    copyFileSync(indexFile, without);
    runGit(['add', '-f', '.gitignore', 'a.txt', 'build/out.js'], { cwd: dir, env: { GIT_INDEX_FILE: withFile } });
    /** Puts a copy of `source` in place of the index by rename, as git does (a new inode each time). */
    const install = (source: string): void => {
      copyFileSync(source, `${indexFile}.swap`);
      renameSync(`${indexFile}.swap`, indexFile);
    };
    const stale: number[] = [];
    for (let ticks = 0; ticks < 60; ticks += 1) {
      install(without);
      const cache = new RepoRulesCache(dir, environment);
      await cache.current();
      install(without); // the same paths in another file: the next read loads again
      const reading = cache.current();
      for (let tick = 0; tick < ticks; tick += 1) await new Promise((resolve) => setImmediate(resolve));
      install(withFile);
      await reading;
      const next = await cache.current();
      if (!next.rules.data.tracked.includes('build/out.js')) stale.push(ticks);
      else expect(next.rules.pathExclusion('build/out.js', false)).toBeUndefined();
    }
    expect(stale, 'swaps after which the next read kept the old index').toEqual([]);
  });
});
