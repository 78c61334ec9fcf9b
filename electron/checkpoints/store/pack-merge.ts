import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ObjectStore } from './object-store';
import { PackWriter } from './pack-writer';

/** What a merge did: how many packs became one, and how many objects that pack holds. */
export interface MergeReport {
  readonly mergedPacks: number;
  readonly objects: number;
  readonly pack: string | undefined;
}

/**
 * Merges every pack but the largest into one, copying whole objects as they are: no reachability
 * walk, nothing dropped, the largest pack (a 50,000-file tree's first checkpoint) not rewritten.
 * Checkpoints and restores each add a small pack; merging only those keeps the pack count low in
 * milliseconds where a full collection rewrites every object of the store (seconds at 50,000
 * files) while it holds the store lock that a restore waits for. The store lock must be held:
 * `assertHeld` is asked before the merged packs are deleted, and the new pack is complete and
 * fsynced before then, so a crash or a lost lock leaves every object readable.
 */
export async function mergeSmallPacks(store: ObjectStore, assertHeld: () => Promise<void>): Promise<MergeReport> {
  await store.refresh(true);
  const bySize = store.packs.map((pack) => ({ pack, count: pack.index.count })).sort((a, b) => b.count - a.count);
  const small = bySize.slice(1).map((item) => item.pack);
  if (small.length < 2) return { mergedPacks: 0, objects: 0, pack: undefined };
  const writer = await PackWriter.create(store.packDir, 6);
  let written;
  try {
    for (const pack of small) {
      let sinceYield = 0;
      for (const entry of pack.index.entries()) {
        if (writer.has(entry.oid)) continue;
        const raw = await pack.rawAt(entry.offset);
        if (raw.isWhole) await writer.addRaw(entry.oid, raw.bytes);
        else {
          const object = await store.read(entry.oid);
          await writer.add(object.type, object.content, entry.oid);
        }
        if (++sinceYield % 500 === 0) await yieldToLoop();
      }
    }
    written = await writer.finish();
  } catch (error) {
    await writer.abort();
    throw error;
  }
  const merged = written;
  await assertHeld().catch(async (error: unknown) => {
    // Lost the lock while merging: leave the store as found (the new pack only duplicated objects).
    if (merged !== undefined && !small.some((pack) => pack.name === merged.name)) {
      for (const extension of ['.idx', '.pack'])
        await unlink(path.join(store.packDir, `${merged.name}${extension}`)).catch(() => undefined);
    }
    throw error;
  });
  await store.close();
  for (const pack of small) {
    if (pack.name === written?.name) continue;
    for (const extension of ['.idx', '.pack', '.bitmap', '.rev'])
      await unlink(path.join(store.packDir, `${pack.name}${extension}`)).catch(() => undefined);
  }
  await store.refresh(true);
  return { mergedPacks: small.length, objects: written?.count ?? 0, pack: written?.name };
}
