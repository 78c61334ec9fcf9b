import { hasBinaryBytes, mapLimit } from '../../files';
import type { CheckpointEntry } from '../checkpoint-types';
import { createPathScope, diffTrees, type TreeChange, type TreeFile, type TreeReader } from '../compare';
import type { HistoryEngine } from './file-history';
import { historyTrees, rootTreeOf } from './history-trees';

/** One place where the count of a text in a file changed: after `checkpoint`, by the next one (or now). */
export interface TextChange {
  readonly checkpoint: CheckpointEntry;
  /** Its number in the timeline (1 = newest). */
  readonly number: number;
  readonly path: string;
  readonly before: number;
  readonly after: number;
  /** The next checkpoint's id, or `live`. */
  readonly nextCheckpoint: string;
}

/** The directory now, as the newer side of the newest checkpoint: its tree (with a reader) and the files' bytes on disk. */
export type LiveTreeSide =
  | {
      readonly kind: 'live';
      readonly root: string | undefined;
      readonly reader: TreeReader;
      readContent: (path: string, file: TreeFile) => Promise<Uint8Array | undefined>;
    }
  | { readonly kind: 'none' };

/** What a search found. */
export interface TextSearchResult {
  readonly changes: readonly TextChange[];
  /** It stopped at the limit: older changes may exist. */
  readonly isTruncated: boolean;
}

/** Pairs of neighbouring checkpoints compared at once. */
const pairConcurrency = 16;

/** How often `needle` occurs in `bytes` (without overlaps), or undefined for binary content, which git's `-S` skips too. */
export function countOccurrences(bytes: Uint8Array, needle: Uint8Array): number | undefined {
  if (hasBinaryBytes(bytes)) return undefined;
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.byteLength)) count += 1;
  return count;
}

/**
 * The checkpoints after which the count of `text` in some file changed (by the next checkpoint,
 * or by now for the newest), newest first: what `git log -S` answers, by the same means. Each
 * neighbouring pair of trees is compared with equal subtrees skipped, only the files that changed
 * are read, and each blob is counted once however many pairs it is in. Binary files are skipped.
 */
export async function searchText(
  engine: HistoryEngine,
  entries: readonly CheckpointEntry[],
  text: string,
  live: LiveTreeSide,
  limit: number,
): Promise<TextSearchResult> {
  const needle = new TextEncoder().encode(text);
  const trees = historyTrees({ readTree: (oid) => engine.readTree(oid) });
  const liveReader: TreeReader | undefined = live.kind === 'live' ? live.reader : undefined;
  const readLive = live.kind === 'live' ? live.readContent : undefined;
  const counts = new Map<string, Promise<number | undefined>>();
  const countOf = (
    file: TreeFile | undefined,
    read: () => Promise<Uint8Array | undefined>,
  ): Promise<number | undefined> => {
    if (file === undefined) return Promise.resolve(0);
    let pending = counts.get(file.oid);
    if (pending === undefined) {
      pending = read().then((bytes) => (bytes === undefined ? 0 : countOccurrences(bytes, needle)));
      counts.set(file.oid, pending);
    }
    return pending;
  };
  const everything = createPathScope([]);

  const comparePair = async (index: number): Promise<TextChange[]> => {
    const checkpoint = entries[index];
    const newer = index === 0 ? undefined : entries[index - 1];
    if (checkpoint === undefined || (newer === undefined && live.kind === 'none')) return [];
    const isLive = newer === undefined && live.kind === 'live';
    const reader = isLive && liveReader !== undefined ? liveReader : trees;
    const newRoot = newer !== undefined ? rootTreeOf(newer.tree) : live.kind === 'live' ? live.root : undefined;
    const changes = await diffTrees(reader, rootTreeOf(checkpoint.tree), newRoot, everything);
    const found = await mapLimit(changes, 8, async (change: TreeChange) => {
      const [before, after] = await Promise.all([
        countOf(change.old, () => engine.readBlob(change.old?.oid ?? '')),
        countOf(change.new, () =>
          isLive && readLive !== undefined && change.new !== undefined
            ? readLive(change.path, change.new)
            : engine.readBlob(change.new?.oid ?? ''),
        ),
      ]);
      return before === undefined || after === undefined || before === after
        ? undefined
        : { checkpoint, number: index + 1, path: change.path, before, after, nextCheckpoint: newer?.id ?? 'live' };
    });
    return found.filter((hit): hit is TextChange => hit !== undefined);
  };

  const changes: TextChange[] = [];
  for (let start = 0; start < entries.length; start += pairConcurrency) {
    const indexes = Array.from(
      { length: Math.min(pairConcurrency, entries.length - start) },
      (_, offset) => start + offset,
    );
    const batch = await Promise.all(indexes.map(comparePair));
    for (const hits of batch) changes.push(...hits);
    if (changes.length > limit) return { changes: changes.slice(0, limit), isTruncated: true };
  }
  return { changes, isTruncated: false };
}
