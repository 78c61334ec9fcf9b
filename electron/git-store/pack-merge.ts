import { unlink } from 'node:fs/promises';
import path from 'node:path';
import type { ObjectStore } from './object-store';
import type { PackFile } from './pack-file';
import { PackWriter, type WrittenPack } from './pack-writer';

/** What a merge of the small packs did. */
export interface MergeReport {
  /** The packs merged (none when the store's shape asks for a full collection instead). */
  readonly merged: number;
  /** The new pack's name (undefined when nothing was merged). */
  readonly pack: string | undefined;
}

/** The pack files a merged pack leaves behind. */
const packExtensions = ['.idx', '.pack', '.bitmap', '.rev'];

/**
 * Whether the store's packs have one base pack at least twice the size of all the others
 * together: then merging the others alone keeps the pack count down at a cost proportional to
 * what was added since, while rewriting the base would cost the whole store.
 */
function smallPacksOf(packs: readonly PackFile[]): PackFile[] | undefined {
  if (packs.length < 3) return undefined;
  const bySize = [...packs].sort((a, b) => b.size - a.size);
  const [base, ...small] = bySize;
  const smallBytes = small.reduce((sum, pack) => sum + pack.size, 0);
  return base !== undefined && base.size >= 2 * smallBytes ? small : undefined;
}

/**
 * Merges every pack but the largest into one new pack, copying their objects as they are (no
 * reachability walk, nothing dropped: the next full collection does that), when the largest pack is
 * at least twice the others together; otherwise changes nothing and reports `merged: 0`. The store
 * lock must be held (`assertHeld` is asked before anything is deleted). Crash-safe by order, as a
 * collection: the new pack is fsynced and visible before any merged pack is deleted.
 */
export async function mergeSmallPacks(store: ObjectStore, assertHeld: () => Promise<void>): Promise<MergeReport> {
  await assertHeld();
  await store.refresh(true);
  const small = smallPacksOf(store.packs);
  if (small === undefined) return { merged: 0, pack: undefined };
  const writer = await PackWriter.create(store.packDir, 1);
  let written: WrittenPack | undefined;
  try {
    for (const pack of small) {
      const entries = [...pack.index.entries()].sort((a, b) => a.offset - b.offset);
      const oidAt = new Map(entries.map((entry) => [entry.offset, entry.oid]));
      for await (const { offset, entry } of pack.rawEntries(entries.map((item) => item.offset))) {
        const oid = oidAt.get(offset) as string;
        if (writer.has(oid)) continue;
        if (entry.isWhole) await writer.addRaw(oid, entry.bytes);
        else {
          // A delta is resolved (its base may be in another pack) and stored whole.
          const object = await store.read(oid);
          await writer.add(object.type, object.content, oid);
        }
      }
    }
    written = await writer.finish();
    await assertHeld();
  } catch (error) {
    await writer.abort();
    // Lost the lock after packing: the new pack stays where it is. It only duplicates objects, which the next
    // collection removes; but the lock's new holder may already rely on it (its own merge or collection can
    // write a pack with the same name, whose objects would then be lost with it).
    throw error;
  }
  await store.close();
  for (const pack of small) {
    if (pack.name === written?.name) continue;
    for (const extension of packExtensions)
      await unlink(path.join(store.packDir, `${pack.name}${extension}`)).catch(() => undefined);
  }
  await store.refresh(true);
  return { merged: small.length, pack: written?.name };
}
