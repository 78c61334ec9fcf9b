import type { StoredTreeEntry } from '../checkpoint-types';
import type { TreeFile, TreeReader } from '../compare';
import { emptyTreeOid } from '../../git-store';

/**
 * Tree reads shared by one walk over a timeline: decoded trees are kept (a bounded number of them,
 * newest reads kept), so a checkpoint whose folders have the same ids as its neighbour's costs no
 * read at all; the lookups of one path are remembered by tree id, so equal subtrees are never
 * entered twice.
 */
export interface HistoryTrees extends TreeReader {
  /** The file at `parts` inside the tree `treeOid` (absent: no such file); remembered by tree id and the rest of the path. */
  fileAt(treeOid: string | undefined, parts: readonly string[]): Promise<TreeFile | undefined>;
}

/** Decoded trees kept by one walk. */
const maxKeptTrees = 4_096;

/** A commit's root tree, with the empty tree read as "nothing". */
export function rootTreeOf(tree: string): string | undefined {
  return tree === emptyTreeOid ? undefined : tree;
}

/** Wraps a reader for one walk over a timeline. */
export function historyTrees(reader: TreeReader): HistoryTrees {
  const trees = new Map<string, Promise<readonly StoredTreeEntry[]>>();
  const found = new Map<string, Promise<TreeFile | undefined>>();

  const readTree = (oid: string): Promise<readonly StoredTreeEntry[]> => {
    let pending = trees.get(oid);
    if (pending === undefined) {
      pending = reader.readTree(oid);
      if (trees.size >= maxKeptTrees) {
        const oldest = trees.keys().next().value;
        if (oldest !== undefined) trees.delete(oldest);
      }
      trees.set(oid, pending);
    }
    return pending;
  };

  const lookup = async (treeOid: string, parts: readonly string[], depth: number): Promise<TreeFile | undefined> => {
    const entry = (await readTree(treeOid)).find((candidate) => candidate.name === parts[depth]);
    if (entry === undefined) return undefined;
    if (depth === parts.length - 1) return entry.type === 'blob' ? { mode: entry.mode, oid: entry.oid } : undefined;
    return entry.type === 'tree' ? fileAt(entry.oid, parts, depth + 1) : undefined;
  };

  const fileAt = (treeOid: string, parts: readonly string[], depth: number): Promise<TreeFile | undefined> => {
    const key = `${treeOid}\0${parts.slice(depth).join('/')}`;
    let pending = found.get(key);
    if (pending === undefined) {
      pending = lookup(treeOid, parts, depth);
      found.set(key, pending);
    }
    return pending;
  };

  return {
    readTree,
    fileAt: (treeOid, parts) =>
      treeOid === undefined || parts.length === 0 ? Promise.resolve(undefined) : fileAt(treeOid, parts, 0),
  };
}
