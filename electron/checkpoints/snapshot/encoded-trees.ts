import { encodeTreeWithOffsets, treeOrder, type EncodedTreeContent, type TreeItem } from '../../git-store';

/** A folder's tree as last encoded: its entries in git's order, its content, and the order its entries came in. */
export interface EncodedTree extends EncodedTreeContent {
  readonly sorted: readonly TreeItem[];
  /** For each entry as given (`items[i]`), its index in `sorted`. */
  readonly positions: readonly number[];
}

/**
 * How much the kept encodings may take, counted as their content's bytes times three (the entries
 * and positions beside it take about twice the content): the most recently built folders are kept.
 * 100 folders of 100 files are ~1.2 MB; a restore's pre-rollback snapshot rebuilds at most a few
 * hundred folders. (At 16 MiB a first snapshot of 50,000 files kept every folder's: ~8 MiB of a
 * resident core's heap for nothing.)
 */
const keptBytes = 4 * 1024 * 1024;

/** What one kept encoding counts against `keptBytes`. */
function weightOf(encoded: EncodedTree): number {
  return encoded.content.length * 3;
}

/** Encodes a folder's entries (any order) whole. */
function encodeWhole(items: readonly TreeItem[]): EncodedTree {
  const order = treeOrder(items);
  const sorted = order.map((index) => items[index] as TreeItem);
  const positions = new Array<number>(items.length);
  for (const [at, index] of order.entries()) positions[index] = at;
  return { sorted, positions, ...encodeTreeWithOffsets(sorted) };
}

/**
 * The tree of `items` made from `previous` when the folder gives the same names with the same modes
 * in the same order as then, and only ids changed (files edited or restored, subfolders' trees
 * changed: the usual rebuild), by copying its content and writing the new ids in place; undefined
 * when anything else changed (a name came, went or moved, a mode changed, an id is not 40 hex
 * digits): then it is encoded whole. The result is byte for byte what encoding `items` whole gives.
 */
export function patchEncodedTree(previous: EncodedTree, items: readonly TreeItem[]): EncodedTree | undefined {
  const { sorted, positions, content, idOffsets } = previous;
  if (idOffsets === undefined || items.length !== sorted.length) return undefined;
  let patched: Buffer | undefined;
  let entries: TreeItem[] | undefined;
  for (const [at, item] of items.entries()) {
    // Same count, and each position holds the name it held then: the same set of entries.
    const index = positions[at] as number;
    const old = sorted[index] as TreeItem;
    if (old.name !== item.name || old.mode !== item.mode) return undefined;
    if (old.oid === item.oid) continue;
    patched ??= Buffer.from(content);
    entries ??= [...sorted];
    if (item.oid.length !== 40 || patched.write(item.oid, idOffsets[index] as number, 'hex') !== 20) return undefined;
    entries[index] = item;
  }
  if (patched === undefined || entries === undefined) return previous;
  return { sorted: entries, positions, content: patched, idOffsets };
}

/**
 * The last encoding of the most recently built folders, so that rebuilding a folder whose files
 * only changed content (a restore's pre-rollback snapshot rebuilds the same folders every time)
 * patches the new ids into a copy instead of sorting and encoding every entry again.
 */
export class EncodedTrees<Key> {
  readonly #kept = new Map<Key, EncodedTree>();
  #bytes = 0;

  /** The tree of the folder `key` holding `items`, reusing its last encoding when it can. */
  encode(key: Key, items: readonly TreeItem[]): EncodedTree {
    const previous = this.#kept.get(key);
    const encoded = (previous === undefined ? undefined : patchEncodedTree(previous, items)) ?? encodeWhole(items);
    // Most recently built last: the first keys are the ones to drop.
    this.forget(key);
    this.#kept.set(key, encoded);
    this.#bytes += weightOf(encoded);
    for (const oldest of this.#kept.keys()) {
      if (this.#bytes <= keptBytes) break;
      this.forget(oldest);
    }
    return encoded;
  }

  /** How many folders' encodings are kept. */
  get size(): number {
    return this.#kept.size;
  }

  /** Drops the folder's encoding (the folder is gone). */
  forget(key: Key): void {
    const kept = this.#kept.get(key);
    if (kept === undefined) return;
    this.#kept.delete(key);
    this.#bytes -= weightOf(kept);
  }

  /** Files the encoding of `from` under `to` (the same folder, held in another form). */
  rekey(from: Key, to: Key): void {
    const kept = this.#kept.get(from);
    if (kept === undefined) return;
    this.#kept.delete(from);
    this.#kept.set(to, kept);
  }

  /** Drops every encoding. */
  clear(): void {
    this.#kept.clear();
    this.#bytes = 0;
  }
}
