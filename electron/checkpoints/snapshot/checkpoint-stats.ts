import type { CheckpointStats } from '../checkpoint-types';
import { changedTreeItems, fileModes, type TreeItem } from '../../git-store';
import { countLines, isBinary, lineChanges } from './line-stats';
import type { ObjectStore } from '../../git-store';

/** What hashing already learned, so that stats need not read blobs back. */
export interface KnownBlobs {
  /** Lines of each blob hashed in this snapshot, or `binaryBlob` (a number, not an object: a first snapshot knows every blob). */
  readonly blobs: ReadonlyMap<string, number>;
  /** Lines added and removed between two blobs, keyed `old>new`. */
  readonly changes: ReadonlyMap<string, { readonly insertions: number; readonly deletions: number }>;
  /** A first snapshot's lines over all its files, summed as they were hashed (its blobs are then not listed one by one). */
  readonly firstLines?: number;
}

/** What `KnownBlobs.blobs` holds for a binary blob. */
export const binaryBlob = -1;

/** The lines a known blob counts in a checkpoint's stats (none when binary), or undefined when not known. */
export function knownLines(known: KnownBlobs, oid: string): number | undefined {
  const hit = known.blobs.get(oid);
  return hit === undefined ? undefined : Math.max(0, hit);
}

/** One changed file between two trees. */
interface FileChange {
  readonly before?: TreeItem;
  readonly after?: TreeItem;
}

async function readItems(store: ObjectStore, tree: string | undefined): Promise<readonly TreeItem[]> {
  return tree === undefined ? [] : store.readTree(tree);
}

/** The files that differ between two trees; equal subtrees are skipped without being read. */
async function changedFiles(
  store: ObjectStore,
  before: string | undefined,
  after: string | undefined,
  out: FileChange[],
): Promise<void> {
  if (before === after) return;
  const [left, right] = await Promise.all([readItems(store, before), readItems(store, after)]);
  for (const [a, b] of changedTreeItems(left, right)) {
    const aTree = a?.mode === fileModes.tree ? a.oid : undefined;
    const bTree = b?.mode === fileModes.tree ? b.oid : undefined;
    if (aTree !== undefined || bTree !== undefined) await changedFiles(store, aTree, bTree, out);
    const aFile = a !== undefined && aTree === undefined && a.mode !== fileModes.gitlink ? a : undefined;
    const bFile = b !== undefined && bTree === undefined && b.mode !== fileModes.gitlink ? b : undefined;
    if (aFile !== undefined || bFile !== undefined) out.push({ before: aFile, after: bFile });
  }
}

async function lineCount(store: ObjectStore, oid: string, known: KnownBlobs): Promise<number> {
  const hit = knownLines(known, oid);
  if (hit !== undefined) return hit;
  const content = await store.readTyped(oid, 'blob');
  return isBinary(content) ? 0 : countLines(content);
}

/**
 * Files changed and lines added/removed from `before` to `after` (git's `diff --numstat`
 * totals), computed once when the checkpoint is taken. Only subtrees that differ are read.
 */
export async function checkpointStats(
  store: ObjectStore,
  before: string | undefined,
  after: string,
  known: KnownBlobs,
): Promise<CheckpointStats> {
  const changes: FileChange[] = [];
  await changedFiles(store, before, after, changes);
  let insertions = 0;
  let deletions = 0;
  let next = 0;
  const runner = async (): Promise<void> => {
    for (let index = next++; index < changes.length; index = next++) {
      const { before: a, after: b } = changes[index] ?? {};
      if (a !== undefined && b !== undefined) {
        if (a.oid === b.oid || known.blobs.get(b.oid) === binaryBlob) continue;
        const counted = known.changes.get(`${a.oid}>${b.oid}`);
        if (counted !== undefined) {
          insertions += counted.insertions;
          deletions += counted.deletions;
          continue;
        }
        const [old, current] = await Promise.all([store.readTyped(a.oid, 'blob'), store.readTyped(b.oid, 'blob')]);
        if (isBinary(old) || isBinary(current)) continue;
        // Counted after the awaits: a `+= await` would race with the other runners.
        const read = lineChanges(old, current);
        insertions += read.insertions;
        deletions += read.deletions;
      } else if (b !== undefined) {
        const added = await lineCount(store, b.oid, known);
        insertions += added;
      } else if (a !== undefined) {
        const removed = await lineCount(store, a.oid, known);
        deletions += removed;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, changes.length) }, runner));
  return { files: changes.length, insertions, deletions };
}
