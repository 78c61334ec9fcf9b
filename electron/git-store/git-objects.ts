import { createHash } from 'node:crypto';

/** The kinds of git object the store holds. */
export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

/** Modes of tree entries, exactly as git writes them. */
export const fileModes = {
  file: '100644',
  executable: '100755',
  symlink: '120000',
  tree: '40000',
  gitlink: '160000',
} as const;

/** The mode of a stored file (trees are handled separately). */
export type FileMode = (typeof fileModes)['file' | 'executable' | 'symlink'];

/** The id of the empty tree, which git knows without storing it. */
export const emptyTreeOid = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** The `<type> <size>\0` header that git hashes and stores in front of an object's content. */
export function objectHeader(type: ObjectType, size: number): Buffer {
  return Buffer.from(`${type} ${size}\0`, 'latin1');
}

/** The object id (SHA-1 hex) of an object with this content. */
export function hashObject(type: ObjectType, content: Uint8Array): string {
  return createHash('sha1').update(objectHeader(type, content.length)).update(content).digest('hex');
}

/** Whether a string is a full object id. */
export function isObjectId(value: string): boolean {
  return /^[0-9a-f]{40}$/.test(value);
}

/** One entry of a tree as written. */
export interface TreeItem {
  readonly mode: string;
  readonly name: string;
  readonly oid: string;
}

/** One entry of a stored tree, as `ObjectStore.readTree` returns it. */
export interface StoredTreeEntry {
  /** `100644`, `100755`, `120000` (symlink), `40000` (tree) or `160000` (gitlink). */
  readonly mode: string;
  readonly name: string;
  readonly oid: string;
  readonly type: 'blob' | 'tree' | 'commit';
}

/**
 * git's tree order: byte-wise on the UTF-8 names, where a tree sorts as if its name ended in `/`
 * (so `a.txt` < `a/` < `a0`).
 */
export function compareTreeItems(left: TreeItem, right: TreeItem): number {
  return compareSortKeys(sortKey(left), sortKey(right));
}

/** The name git sorts an entry by: a tree's name with `/` appended. */
function sortKey(item: TreeItem): string {
  return item.mode === fileModes.tree ? `${item.name}/` : item.name;
}

/** Whether a string holds UTF-16 surrogates (characters beyond the BMP). */
const hasSurrogates = (value: string): boolean => /[\uD800-\uDFFF]/.test(value);

/**
 * Byte-wise UTF-8 order. Without surrogates, UTF-16 code-unit order already is code-point order,
 * which is UTF-8 byte order; only names with characters beyond the BMP need encoding.
 */
function compareSortKeys(a: string, b: string): number {
  if (hasSurrogates(a) || hasSurrogates(b)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Tree entries in git's order (see `compareTreeItems`), as a tree object lists them. */
export function sortTreeItems(items: readonly TreeItem[]): TreeItem[] {
  return treeOrder(items).map((index) => items[index] as TreeItem);
}

/** The indices of `items` in git's tree order (see `compareTreeItems`). */
export function treeOrder(items: readonly TreeItem[]): number[] {
  const keyed = items.map((item, index) => ({ index, key: sortKey(item) }));
  return keyed.sort((a, b) => compareSortKeys(a.key, b.key)).map(({ index }) => index);
}

/** Serializes tree entries (sorting them git's way) into a tree object's content. */
export function encodeTree(items: readonly TreeItem[]): Buffer {
  return encodeSortedTree(sortTreeItems(items));
}

/** Serializes tree entries already in git's order (`sortTreeItems`), into one buffer (not two per entry). */
export function encodeSortedTree(sorted: readonly TreeItem[]): Buffer {
  return encodeTreeWithOffsets(sorted).content;
}

/** A tree object's content with where each entry's 20-byte id starts in it. */
export interface EncodedTreeContent {
  readonly content: Buffer;
  /** One offset per entry, in order; undefined when an id is not 40 hex digits (then encoded as `Buffer.from(id, 'hex')` would). */
  readonly idOffsets: readonly number[] | undefined;
}

/** `encodeSortedTree`, also telling where each entry's id sits (so that a later version with other ids can be patched in place). */
export function encodeTreeWithOffsets(sorted: readonly TreeItem[]): EncodedTreeContent {
  const heads = sorted.map((item) => `${item.mode} ${item.name}\0`);
  let length = 0;
  for (const head of heads) length += Buffer.byteLength(head) + 20;
  const out = Buffer.allocUnsafe(length);
  const idOffsets: number[] = [];
  let at = 0;
  for (const [index, item] of sorted.entries()) {
    at += out.write(heads[index] ?? '', at);
    // An id that is not 40 hex digits is encoded as Buffer.from(id, 'hex') encodes it (cut at the first bad
    // digit, or longer than 20 bytes), which the buffer sized for 20 bytes per id cannot hold.
    if (item.oid.length !== 40) return { content: encodeEntryByEntry(sorted), idOffsets: undefined };
    idOffsets.push(at);
    const written = out.write(item.oid, at, 'hex');
    if (written !== 20) return { content: encodeEntryByEntry(sorted), idOffsets: undefined };
    at += written;
  }
  return { content: out, idOffsets };
}

function encodeEntryByEntry(sorted: readonly TreeItem[]): Buffer {
  const parts: Buffer[] = [];
  for (const item of sorted) {
    parts.push(Buffer.from(`${item.mode} ${item.name}\0`), Buffer.from(item.oid, 'hex'));
  }
  return Buffer.concat(parts);
}

/**
 * The entries that differ between two versions of a folder, paired by name (a missing side:
 * absent there). Trees listed in the same order with the same names (a folder whose files changed
 * but none came or went: the usual case) are compared index by index, without a map.
 */
export function changedTreeItems<T extends TreeItem>(
  olds: readonly T[],
  news: readonly T[],
): Array<readonly [T | undefined, T | undefined]> {
  const pairs: Array<readonly [T | undefined, T | undefined]> = [];
  if (olds.length === news.length) {
    let index = 0;
    for (; index < olds.length; index += 1) {
      const a = olds[index] as T;
      const b = news[index] as T;
      if (a.name !== b.name) break;
      if (a.oid !== b.oid || a.mode !== b.mode) pairs.push([a, b]);
    }
    if (index === olds.length) return pairs;
    pairs.length = 0;
  }
  // Each new entry takes its old one out of a map of the old side; what is left existed only before.
  const byName = new Map(olds.map((item) => [item.name, item]));
  for (const b of news) {
    const a = byName.get(b.name);
    if (a !== undefined) byName.delete(b.name);
    if (a === undefined || a.oid !== b.oid || a.mode !== b.mode) pairs.push([a, b]);
  }
  for (const a of byName.values()) pairs.push([a, undefined]);
  return pairs;
}

/** Parses a tree object's content. */
export function decodeTree(content: Uint8Array): TreeItem[] {
  const buffer = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const items: TreeItem[] = [];
  let at = 0;
  while (at < buffer.length) {
    const space = buffer.indexOf(0x20, at);
    const nul = buffer.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > buffer.length) throw new Error('damaged tree object');
    items.push({
      mode: buffer.toString('latin1', at, space),
      name: buffer.toString('utf8', space + 1, nul),
      oid: buffer.toString('hex', nul + 1, nul + 21),
    });
    at = nul + 21;
  }
  return items;
}

/** The object type a tree entry's mode points at. */
export function typeOfMode(mode: string): 'blob' | 'tree' | 'commit' {
  if (mode === fileModes.tree) return 'tree';
  if (mode === fileModes.gitlink) return 'commit';
  return 'blob';
}
