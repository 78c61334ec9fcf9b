import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { SkippedPath, SkipReason } from '../checkpoint-types';
import { emptyTreeOid, fileModes, hashObject, type FileMode, type TreeItem } from '../../git-store';
import { EncodedTrees } from './encoded-trees';
import { fileCountOf, filesOf, skipsOf, SavedFolder } from './saved-folder';
import type { SavedSource } from './stat-cache-patch';

/** What the stat cache knows about one stored file: its stat at hashing time and its blob id. */
export interface FileRecord {
  readonly mode: FileMode;
  readonly oid: string;
  readonly size: number;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly ino: bigint;
}

/** One folder of the checkpointed directory. */
export interface DirNode {
  readonly files: Map<string, FileRecord>;
  readonly dirs: Set<string>;
  readonly skipped: Map<string, SkipReason>;
  /** The folder's tree id, or undefined while something below it changed. */
  tree: string | undefined;
}

/** A folder as read (see `DirState.peek`). */
export interface FolderView {
  readonly files: ReadonlyMap<string, FileRecord>;
  readonly dirs: ReadonlySet<string>;
  readonly skipped: ReadonlyMap<string, SkipReason>;
}

/** Writes a tree object (unless stored already) given its content, its id and its entries (in git's order). */
export type TreeSink = (content: Buffer, oid: string, items: readonly TreeItem[]) => Promise<void>;

function newNode(): DirNode {
  return { files: new Map(), dirs: new Set(), skipped: new Map(), tree: undefined };
}

function splitPath(rel: string): [string, string] {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? ['', rel] : [rel.slice(0, slash), rel.slice(slash + 1)];
}

function join(parent: string, name: string): string {
  return parent === '' ? name : `${parent}/${name}`;
}

/**
 * The in-memory index of one checkpointed directory: every stored file with its stat and blob id,
 * every skipped path, and each folder's tree id. A change dirties only the folders on its path, so
 * the next tree is built by re-hashing those few trees and reusing every other subtree id.
 */
export class DirState {
  readonly #nodes = new Map<string, DirNode>([['', newNode()]]);
  /** The recently built folders' encodings, patched when only ids changed. */
  readonly #encoded = new EncodedTrees<DirNode>();
  /** The commit this state equals (undefined before the first checkpoint). */
  head: string | undefined;
  /** When the last scan began (ns): files modified since are "racy" and re-hashed next time. */
  stampNs = 0n;
  /** The stat cache file this state was loaded from, while it still matches it but for the changes (see `saveStatCache`). */
  savedSource: SavedSource | undefined;

  /** The folder node at `rel` ('' is the top). */
  node(rel: string): DirNode | undefined {
    return this.#nodes.get(rel);
  }

  /** How many files are stored. */
  get fileCount(): number {
    let count = 0;
    for (const node of this.#nodes.values()) count += fileCountOf(node);
    return count;
  }

  /** The record of a stored file. */
  file(rel: string): FileRecord | undefined {
    const [parent, name] = splitPath(rel);
    return this.#nodes.get(parent)?.files.get(name);
  }

  /** Every stored file, with its path (read only: a compact folder stays compact). */
  *files(): Generator<[string, FileRecord]> {
    for (const [rel, node] of this.#nodes) for (const [name, record] of filesOf(node)) yield [join(rel, name), record];
  }

  /**
   * The folder at `rel` to read, never to change: a compact folder's files are decoded for the
   * caller and not kept (a verification walk looks at every folder and must leave them compact).
   */
  peek(rel: string): FolderView | undefined {
    const node = this.#nodes.get(rel);
    if (node === undefined) return undefined;
    return { files: filesOf(node), dirs: node.dirs, skipped: new Map(skipsOf(node)) };
  }

  /**
   * Swaps the folder at `rel` for `saved`: the same entries, held in the columns of the stat cache
   * they were just saved to (about 100 bytes a file instead of ~600 as objects), or the columns a
   * first snapshot builds its complete folders into. Only the stat cache's saver (right after a
   * save of this very state) and a first snapshot's `FolderCompactor` call this, under the store lock.
   */
  compactFolder(rel: string, saved: SavedFolder): void {
    const node = this.#nodes.get(rel);
    if (node === undefined || node === saved) return;
    for (const name of node.dirs) saved.dirs.add(name);
    saved.tree = node.tree;
    this.#encoded.rekey(node, saved);
    this.#nodes.set(rel, saved);
  }

  /** Every folder with its tree id (for the stat cache). */
  *folders(): Generator<[string, string | undefined]> {
    for (const [rel, node] of this.#nodes) yield [rel, node.tree];
  }

  /** Every folder node with its path, parents before children (for the stat cache). */
  *nodes(): Generator<[string, Readonly<DirNode>]> {
    yield* this.#nodes;
  }

  /** Every skipped path; a skipped folder ends with `/`. */
  skippedPaths(): SkippedPath[] {
    const list: SkippedPath[] = [];
    for (const [rel, node] of this.#nodes)
      for (const [name, reason] of skipsOf(node)) list.push({ path: join(rel, name), reason });
    return list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** The folder at `rel`, created (with its parents) when missing. */
  ensureFolder(rel: string): DirNode {
    const existing = this.#nodes.get(rel);
    if (existing !== undefined) return existing;
    const [parent, name] = splitPath(rel);
    const parentNode = this.ensureFolder(parent);
    parentNode.files.delete(name);
    parentNode.skipped.delete(name);
    parentNode.skipped.delete(`${name}/`);
    parentNode.dirs.add(name);
    this.#dirty(parent);
    const node = newNode();
    this.#nodes.set(rel, node);
    return node;
  }

  /**
   * Adds a folder as the stat cache saved it (parents come first, so its parent is there): only
   * the stat cache's loader calls this, on a state no snapshot has touched yet.
   */
  loadFolder(rel: string, node: DirNode): void {
    const existing = this.#nodes.get(rel);
    if (existing !== undefined) {
      for (const name of existing.dirs) node.dirs.add(name);
      this.#encoded.forget(existing);
    }
    if (rel !== '') {
      const [parent, name] = splitPath(rel);
      this.ensureFolder(parent).dirs.add(name);
    }
    this.#nodes.set(rel, node);
  }

  /** Stores a file's record; whatever was at that path before (a folder, a skip) is replaced. */
  setFile(rel: string, record: FileRecord): void {
    const [parent, name] = splitPath(rel);
    const node = this.ensureFolder(parent);
    const previous = node.files.get(name);
    if (node.dirs.has(name)) this.#removeFolder(join(parent, name));
    node.skipped.delete(name);
    node.files.set(name, record);
    if (previous === undefined || previous.oid !== record.oid || previous.mode !== record.mode) this.#dirty(parent);
  }

  /** Records a path as skipped; a stored file or folder there is dropped from the next tree. */
  setSkipped(rel: string, reason: SkipReason, isFolder: boolean): void {
    const [parent, name] = splitPath(rel);
    const node = this.ensureFolder(parent);
    this.#dropEntry(parent, node, name);
    node.skipped.set(isFolder ? `${name}/` : name, reason);
  }

  /** Forgets a path (it no longer exists): a file, a folder with everything in it, or a skip. */
  remove(rel: string): void {
    const [parent, name] = splitPath(rel);
    const node = this.#nodes.get(parent);
    if (node !== undefined) this.#dropEntry(parent, node, name);
  }

  /** Every name the folder `rel` holds (stored, folders, skipped), for a walk to spot deletions. */
  names(rel: string): string[] {
    const node = this.#nodes.get(rel);
    if (node === undefined) return [];
    const skipped = [...skipsOf(node)].map(([name]) => name.replace(/\/$/, ''));
    const files = node instanceof SavedFolder ? node.fileNames() : [...node.files.keys()];
    return [...files, ...node.dirs, ...skipped];
  }

  /** Marks every folder dirty, so that the next `buildTree` recomputes (and re-writes) every tree. */
  invalidateTrees(): void {
    this.#encoded.clear();
    for (const node of this.#nodes.values()) node.tree = undefined;
  }

  /**
   * The root tree id: dirty folders are re-encoded deepest first and written through `sink`;
   * clean folders keep their id. An empty folder is left out, as git does.
   */
  async buildTree(sink: TreeSink): Promise<string> {
    const dirty = [...this.#nodes].filter(([, node]) => node.tree === undefined);
    const depth = (rel: string): number => (rel === '' ? 0 : rel.split('/').length);
    dirty.sort(([a], [b]) => depth(b) - depth(a));
    let sinceYield = 0;
    // Writes run side by side (a few loose files, or appends to one pack); all are awaited before returning.
    const writes: Promise<void>[] = [];
    for (const [rel, node] of dirty) {
      const items: TreeItem[] = [];
      // Read without decoding a compact folder for good: building a tree changes none of its entries.
      for (const [name, record] of filesOf(node)) items.push({ mode: record.mode, name, oid: record.oid });
      for (const name of node.dirs) {
        const child = this.#nodes.get(join(rel, name))?.tree;
        if (child !== undefined && child !== emptyTreeOid) items.push({ mode: fileModes.tree, name, oid: child });
      }
      const { sorted, content } = this.#encoded.encode(node, items);
      const oid = hashObject('tree', content);
      if (rel === '' || oid !== emptyTreeOid) writes.push(sink(content, oid, sorted));
      node.tree = oid;
      sinceYield += items.length + 1;
      if (sinceYield > 500) {
        sinceYield = 0;
        await Promise.all(writes.splice(0));
        await yieldToLoop();
      }
    }
    await Promise.all(writes);
    return this.#nodes.get('')?.tree ?? emptyTreeOid;
  }

  #dropEntry(parent: string, node: DirNode, name: string): void {
    const changed = node.files.delete(name) || node.dirs.has(name);
    if (node.dirs.has(name)) this.#removeFolder(join(parent, name));
    node.skipped.delete(name);
    node.skipped.delete(`${name}/`);
    if (changed) this.#dirty(parent);
  }

  #removeFolder(rel: string): void {
    const [parent, name] = splitPath(rel);
    this.#nodes.get(parent)?.dirs.delete(name);
    const prefix = `${rel}/`;
    for (const [key, node] of [...this.#nodes]) {
      if (key !== rel && !key.startsWith(prefix)) continue;
      this.#nodes.delete(key);
      this.#encoded.forget(node);
    }
  }

  #dirty(rel: string): void {
    let current: string | undefined = rel;
    while (current !== undefined) {
      const node = this.#nodes.get(current);
      if (node === undefined || (node.tree === undefined && current !== rel)) break;
      node.tree = undefined;
      current = current === '' ? undefined : splitPath(current)[0];
    }
  }
}
