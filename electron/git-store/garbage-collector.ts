import { readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { decodeTree, fileModes, typeOfMode } from './git-objects';
import { isLooseObjectName } from './loose-objects';
import type { ObjectStore } from './object-store';
import type { PackFile, RawPackEntry } from './pack-file';
import { storedTreeContent } from './stored-tree-content';
import { PackWriter } from './pack-writer';
import type { RefStore } from './ref-store';

/**
 * What the collector needs of a commit: the tree and parents it keeps alive, and the skip list its
 * message names. The store does not parse checkpoint messages itself: the timeline above it does.
 */
export interface CollectedCommit {
  readonly tree: string;
  readonly parents: readonly string[];
  readonly skippedList?: string | undefined;
}

/** Reads commits for the collector (the checkpoint timeline, passed in so the store knows nothing above it). */
export interface CommitReader {
  commit(id: string): Promise<CollectedCommit>;
}

/** What a collection did. */
export interface CollectReport {
  readonly keptObjects: number;
  readonly droppedObjects: number;
  readonly pack: string | undefined;
  /** It stopped before changing anything, because `shouldYield` asked it to (nothing was collected). */
  readonly gaveWay: boolean;
}

/** How a collection runs. */
export interface CollectOptions {
  /**
   * Asked between steps until the new pack is complete: true stops the collection there, with the
   * store exactly as it was (the partial pack deleted), so that work waiting for the store lock
   * (a restore, an agent's checkpoint) does not wait seconds for background tidying.
   */
  readonly shouldYield?: () => boolean;
  /** Trees kept with what they hold though no ref names them yet (a resident core's warmed first snapshots). */
  readonly keptTrees?: readonly string[];
}

/** Thrown inside a collection to stop it where it is (see CollectOptions.shouldYield). */
class GaveWay extends Error {}

/** What a collection that gave way did: nothing. */
const gaveWayReport: CollectReport = { keptObjects: 0, droppedObjects: 0, pack: undefined, gaveWay: true };

/** Stops the collection here when it is asked to give way. */
function giveWayIfAsked(options: CollectOptions): void {
  if (options.shouldYield?.() === true) throw new GaveWay('the collection gave way');
}

/** A check point of a collection: stops it when asked to give way, else lets other work run. */
function yieldPoint(options: CollectOptions): Promise<void> {
  giveWayIfAsked(options);
  return yieldToLoop();
}

/** Every object reachable from the timelines' heads and the dropped area's refs (commits, then trees, then blobs), and the cut points in use. */
async function reachableObjects(
  store: ObjectStore,
  refs: RefStore,
  commitReader: CommitReader,
  options: CollectOptions,
): Promise<{ order: string[]; cuts: Set<string> }> {
  const shallow = await refs.readShallow();
  const seen = new Set<string>();
  const commits: string[] = [];
  const trees: string[] = [];
  const blobs: string[] = [];
  const cuts = new Set<string>();
  const pendingTrees: string[] = [];
  // The timelines, and the batches of the recently dropped area (kept until they expire).
  const heads = [...(await refs.list()).values(), ...(await refs.listDropped()).map((ref) => ref.head)];
  for (const head of heads) {
    const stack = [head];
    while (stack.length > 0) {
      const id = stack.pop() as string;
      if (seen.has(id)) continue;
      seen.add(id);
      commits.push(id);
      const commit = await commitReader.commit(id);
      if (!seen.has(commit.tree)) {
        seen.add(commit.tree);
        pendingTrees.push(commit.tree);
      }
      // A complete skip list is named only by the commit's message: kept while the commit is (when still there).
      const list = commit.skippedList;
      if (list !== undefined && !seen.has(list) && (await store.has(list))) {
        seen.add(list);
        blobs.push(list);
      }
      if (shallow.has(id)) cuts.add(id);
      else stack.push(...commit.parents);
    }
  }
  for (const tree of options.keptTrees ?? [])
    if (!seen.has(tree) && (await store.has(tree))) {
      seen.add(tree);
      pendingTrees.push(tree);
    }
  let sinceYield = 0;
  while (pendingTrees.length > 0) {
    const tree = pendingTrees.pop() as string;
    trees.push(tree);
    for (const item of decodeTree(await store.readTyped(tree, 'tree'))) {
      if (item.mode === fileModes.gitlink || seen.has(item.oid)) continue;
      seen.add(item.oid);
      if (typeOfMode(item.mode) === 'tree') pendingTrees.push(item.oid);
      else blobs.push(item.oid);
    }
    if (++sinceYield % 200 === 0) await yieldPoint(options);
  }
  return { order: [...commits, ...trees, ...blobs], cuts };
}

/**
 * Writes every object of `order` into `writer`: those of the old packs pack by pack in offset
 * order, read in large windows and copied whole without recompressing (a delta is resolved and
 * recompressed, a tree stored uncompressed is compressed), then the loose ones.
 */
async function copyObjects(
  store: ObjectStore,
  oldPacks: readonly PackFile[],
  order: readonly string[],
  writer: PackWriter,
  options: CollectOptions,
): Promise<void> {
  const byPack = new Map<PackFile, Map<number, string>>(oldPacks.map((pack) => [pack, new Map()]));
  const elsewhere: string[] = [];
  for (const oid of order) {
    let isPacked = false;
    for (const pack of oldPacks) {
      const offset = pack.index.find(oid);
      if (offset === undefined) continue;
      byPack.get(pack)?.set(offset, oid);
      isPacked = true;
      break;
    }
    if (!isPacked) elsewhere.push(oid);
  }
  let count = 0;
  const copy = async (oid: string, entry?: RawPackEntry): Promise<void> => {
    const storedTree = entry === undefined ? undefined : await storedTreeContent(entry, oid);
    // Level 1, as other snapshots write trees: their object ids (most of their bytes) do not compress at any level.
    if (storedTree !== undefined) await writer.add('tree', storedTree, oid, 1);
    else if (entry?.isWhole === true) await writer.addRaw(oid, entry.bytes);
    else {
      const object = await store.read(oid);
      await writer.add(object.type, object.content, oid);
    }
    if (++count % 500 === 0) await yieldPoint(options);
  };
  for (const [pack, oids] of byPack) {
    const offsets = [...oids.keys()].sort((a, b) => a - b);
    for await (const { offset, entry } of pack.rawEntries(offsets)) await copy(oids.get(offset) as string, entry);
  }
  for (const oid of elsewhere) await copy(oid);
}

/** The loose objects of the store, by id, with their files. */
async function looseObjects(store: ObjectStore): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const fan of await readdir(store.objectsDir).catch(() => [] as string[])) {
    if (!/^[0-9a-f]{2}$/.test(fan)) continue;
    for (const name of await readdir(path.join(store.objectsDir, fan)).catch(() => [] as string[])) {
      if (isLooseObjectName(name)) found.set(fan + name, path.join(store.objectsDir, fan, name));
    }
  }
  return found;
}

/**
 * Rewrites the store as one pack holding exactly the reachable objects, then deletes every older
 * pack and loose object (the store lock must be held: `assertHeld` is asked right before each
 * destructive step, so a writer whose lock was taken over deletes nothing). Whole objects are
 * copied from the old packs without recompressing. Crash-safe by order: the new pack is complete
 * and visible before the shallow list shrinks, and both before anything is deleted. With
 * `options.shouldYield`, it may stop before its new pack is complete, changing nothing.
 */
export async function collectGarbage(
  store: ObjectStore,
  refs: RefStore,
  commitReader: CommitReader,
  assertHeld: () => Promise<void>,
  options: CollectOptions = {},
): Promise<CollectReport> {
  await assertHeld();
  await store.refresh(true);
  let reachableFound;
  try {
    reachableFound = await reachableObjects(store, refs, commitReader, options);
  } catch (error) {
    if (error instanceof GaveWay) return gaveWayReport;
    throw error;
  }
  const { order, cuts } = reachableFound;
  const loose = await looseObjects(store);
  const oldPacks = store.packs;
  const existing = new Set(loose.keys());
  for (const pack of oldPacks) for (const entry of pack.index.entries()) existing.add(entry.oid);
  const reachable = new Set(order);
  const dropped = [...existing].filter((oid) => !reachable.has(oid)).length;
  if (dropped === 0 && loose.size === 0 && oldPacks.length <= 1)
    return { keptObjects: order.length, droppedObjects: 0, pack: oldPacks[0]?.name, gaveWay: false };

  const writer = await PackWriter.create(store.packDir, 6);
  let written;
  try {
    await copyObjects(store, oldPacks, order, writer, options);
    giveWayIfAsked(options);
    written = await writer.finish();
  } catch (error) {
    await writer.abort();
    if (error instanceof GaveWay) return gaveWayReport;
    throw error;
  }
  // Lost the lock while packing: this throws and the new pack stays (it only duplicates objects, which the next
  // collection removes). Removing it could remove what the lock's new holder relies on: its own collection or
  // merge can write a pack with the same name and delete the packs it came from.
  await assertHeld();
  await refs.writeShallow(cuts);
  for (const dirhash of (await refs.list()).keys()) await refs.log.retain(dirhash, (oid) => reachable.has(oid));
  await assertHeld();
  await store.close();
  for (const pack of oldPacks) {
    if (pack.name === written?.name) continue;
    for (const extension of ['.idx', '.pack', '.bitmap', '.rev']) {
      await unlink(path.join(store.packDir, `${pack.name}${extension}`)).catch(() => undefined);
    }
  }
  for (const file of loose.values()) await unlink(file).catch(() => undefined);
  // Every loose object is in the new pack now, which was fsynced.
  store.forgetUnsynced();
  await store.refresh(true);
  return { keptObjects: order.length, droppedObjects: dropped, pack: written?.name, gaveWay: false };
}
