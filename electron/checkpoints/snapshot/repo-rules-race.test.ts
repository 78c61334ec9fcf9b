import { describe, expect, it } from 'vitest';
import { makeIgnoredBuildRepo, prepareIndexSwap, useRulesRepo } from '../test-support/rules-repo';
import { RepoRulesCache } from './repo-rules';

/**
 * A change made while the rules are being read must be seen by the next read. The cache
 * takes its fingerprint of the index and the ignore files after the load, so a change that lands
 * between the load's read and that fingerprint is taken as already read: the rules stay stale until
 * something else changes. Here the index is swapped in (by rename, as git writes it) at a different
 * point of the read in each round; the next read must always see it.
 */

const repo = useRulesRepo('vigil-rules-race-', makeIgnoredBuildRepo);

describe('an index swapped in while the rules are read (git add -f build/out.js, build/ ignored)', () => {
  it('is always seen by the next read, wherever in the read it lands', async () => {
    const swap = prepareIndexSwap(repo.root, repo.dir);
    const stale: number[] = [];
    for (let ticks = 0; ticks < 60; ticks += 1) {
      swap.installWithout();
      const cache = new RepoRulesCache(repo.dir, repo.environment);
      await cache.current();
      await swap.swapInDuring(ticks, () => cache.current());
      const next = await cache.current();
      if (!next.rules.data.tracked.includes('build/out.js')) stale.push(ticks);
      else expect(next.rules.pathExclusion('build/out.js', false)).toBeUndefined();
    }
    expect(stale, 'swaps after which the next read kept the old index').toEqual([]);
  });
});
