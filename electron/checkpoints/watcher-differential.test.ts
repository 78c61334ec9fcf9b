import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { runWatcherDifferential } from '../test-support/watcher-differential';
import { gitWriteTree, testService } from './test-support/store-fixtures';

/** `VIGIL_DIFF_SEED=<n>` replays a run; otherwise each run takes a new seed, printed so that a failure can be replayed. */
const seed =
  process.env.VIGIL_DIFF_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.VIGIL_DIFF_SEED);

describe('a watching engine stores what a full walk finds (differential, random file operations)', () => {
  let base: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-watchdiff-'));
  });
  afterEach(async () => {
    await remove();
  });

  it(`500 operations, seed ${seed} (VIGIL_DIFF_SEED=${seed} replays it)`, { timeout: 600_000 }, async () => {
    console.log(`watcher differential: seed ${seed} (replay with VIGIL_DIFF_SEED=${seed})`);
    const result = await runWatcherDifferential({
      base,
      seed,
      ops: 500,
      engine: (root, isWatching) => testService(root, isWatching ? { watch: true, verifyEveryMs: 0 } : {}),
      gitWriteTree,
    });
    if (result.divergence !== undefined)
      console.log(
        [`seed ${seed}: checkpoint ${result.divergence.checkpoint} diverged`, ...result.divergence.log].join('\n'),
      );
    expect(result.divergence).toBeUndefined();
    expect(result.missedByWatcher).toBe(0);
    expect(result.ops).toBe(500);
    expect(result.gitChecks).toBeGreaterThan(0);
  });

  it(`150 operations with the state compacted after every snapshot, seed ${seed}`, { timeout: 600_000 }, async () => {
    // The stat cache is saved (and the state swapped for its columns) as soon as snapshots pause:
    // every checkpoint starts from a compact state, as a resident core's do after its first save.
    const result = await runWatcherDifferential({
      base,
      seed,
      ops: 150,
      engine: (root, isWatching) =>
        testService(root, isWatching ? { watch: true, verifyEveryMs: 0, statCacheQuietMs: 0 } : {}),
      gitWriteTree,
    });
    if (result.divergence !== undefined)
      console.log(
        [`seed ${seed}: checkpoint ${result.divergence.checkpoint} diverged`, ...result.divergence.log].join('\n'),
      );
    expect(result.divergence).toBeUndefined();
    expect(result.missedByWatcher).toBe(0);
    expect(result.gitChecks).toBeGreaterThan(0);
  });
});
