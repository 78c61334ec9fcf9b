import { collectGarbage } from '../../git-store';
import { droppedBatches, expireBatch } from './dropped-area';
import { droppableByAge, dropOldest, type CutOptions } from './retention';
import type { MaintenanceOptions } from './store-maintenance';
import { measureStore } from './store-usage';

/** Rounds of one enforcement: each empties one dropped batch or cuts a quarter of the droppable checkpoints. */
const maxRounds = 24;

/**
 * Brings the store under its size cap. The recently dropped area is kept "within the size
 * budget": while the store is over its cap, its batches leave first, the oldest cut first (each
 * recorded as expired for space). Only when it is empty are the oldest checkpoints across all
 * timelines cut (a quarter of the droppable ones per round, never a directory's newest nor a
 * pinned one); they pass through the area too, but as the store is still over its budget they
 * leave it in the next round. Returns how many checkpoints left the timelines and how many objects went.
 */
export async function enforceSizeCap(
  options: MaintenanceOptions,
  cutOptionsOf: () => Promise<CutOptions>,
): Promise<{ droppedCheckpoints: number; droppedObjects: number }> {
  const { store, refs, timeline, logger } = options;
  const retention = options.retention();
  let droppedCheckpoints = 0;
  let droppedObjects = 0;
  for (let round = 0; round < maxRounds; round += 1) {
    if ((await measureStore(store.objectsDir)).bytes <= retention.maxTotalBytes) break;
    const cutOptions = await cutOptionsOf();
    const oldestBatch = (await droppedBatches(refs))[0];
    if (oldestBatch !== undefined) {
      await options.assertHeld();
      const left = await expireBatch(options.dropped(), oldestBatch, 'space');
      logger.warn('dropped checkpoints left the store to keep it under its size cap', {
        dirhash: oldestBatch.dirhash,
        batch: oldestBatch.name,
        checkpoints: left,
        cap: retention.maxTotalBytes,
      });
      // The trees a session-open warm-up stored but has not committed yet are kept, as in every collection.
      const collected = await collectGarbage(store, refs, timeline, options.assertHeld, {
        keptTrees: options.keptTrees?.(),
      });
      droppedObjects += collected.droppedObjects;
      continue;
    }
    const droppable = (await droppableByAge(refs, timeline, cutOptions.pinned)).length;
    if (droppable === 0) {
      logger.warn(
        'the checkpoint store is over its size cap with only the newest and the pinned checkpoints of each directory left',
        { cap: retention.maxTotalBytes },
      );
      break;
    }
    const cuts = await dropOldest(refs, timeline, Math.max(1, Math.ceil(droppable / 4)), cutOptions);
    const dropped = [...cuts.values()].reduce((sum, cut) => sum + cut.dropped, 0);
    // Only protected checkpoints (pinned, or a restore's target) are left to drop: keep them.
    if (dropped === 0) break;
    for (const [dirhash, cut] of cuts) await options.reportCut({ dirhash, ...cut, reason: 'size-cap' });
    droppedCheckpoints += dropped;
  }
  return { droppedCheckpoints, droppedObjects };
}
