import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { CheckpointService } from './checkpoint-service';
import { runGit } from './test-support/restore-fixtures';
import { makeIgnoredBuildRepo, prepareIndexSwap } from './test-support/rules-repo';

/**
 * End to end: a file an agent tracks with `git add -f` while a checkpoint reads the
 * repository's rules must be in the next checkpoint (tracked files are stored whatever an ignore
 * rule says). The index is swapped in (by rename, as git writes it) at a different point of the
 * checkpoint in each round; after it, nothing changes, and one more checkpoint must hold the file.
 */

let base: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-rules-race-cp-'));
});
afterEach(async () => {
  await remove();
});

describe('a checkpoint after a git add -f made during the previous one', () => {
  it('holds the newly tracked file, wherever in the previous checkpoint the index changed', async () => {
    const { dir, environment: rulesEnvironment } = makeIgnoredBuildRepo(base);
    const swap = prepareIndexSwap(base, dir);

    const missing: number[] = [];
    for (let ticks = 0; ticks < 80; ticks += 1) {
      const root = path.join(base, `checkpoints-${ticks}`);
      const engine = new CheckpointService({ root, logger: silentLogger, rulesEnvironment });
      try {
        swap.installWithout();
        await engine.checkpoint(dir, { reason: 'before' });
        // the index swapped in while this checkpoint reads the rules again
        await swap.swapInDuring(ticks, () => engine.checkpoint(dir, { reason: 'during the git add' }));
        await engine.checkpoint(dir, { reason: 'after' });
        const store = path.join(root, 'store');
        const head = runGit(['--git-dir', store, 'for-each-ref', '--format=%(objectname)']).split('\n')[0] ?? '';
        const files = runGit(['--git-dir', store, 'ls-tree', '-r', '--name-only', head]).split('\n');
        if (!files.includes('build/out.js')) missing.push(ticks);
      } finally {
        await engine.dispose();
      }
    }
    expect(missing, 'rounds whose last checkpoint left out the tracked build/out.js').toEqual([]);
  }, 120_000);
});
