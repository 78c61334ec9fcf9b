import { mapLimit } from '../../files';
import type { StoredTreeEntry } from '../checkpoint-types';
import type { PathScope } from './diff-path-scope';
import { changedTreeItems } from '../../git-store';

/** Reads tree objects by id: the store, or a live tree held in memory. */
export interface TreeReader {
  readTree(treeOid: string): Promise<readonly StoredTreeEntry[]>;
}

/** A file (regular, executable or symlink) as a tree holds it. */
export interface TreeFile {
  readonly mode: string;
  readonly oid: string;
}

/** One path that differs between two trees; a missing side means the file does not exist there. */
export interface TreeChange {
  readonly path: string;
  readonly old?: TreeFile;
  readonly new?: TreeFile;
}

/** Trees read at once while walking (enough to hide I/O latency, few enough for descriptor limits). */
const readConcurrency = 32;

/** One pair of subtrees still to compare, and the folder they stand for ("" is the root). */
interface PendingPair {
  readonly prefix: string;
  readonly old: string | undefined;
  readonly new: string | undefined;
}

function isTree(entry: StoredTreeEntry | undefined): entry is StoredTreeEntry {
  return entry?.type === 'tree';
}

/** Files only: gitlinks (a nested repository's commit) are never stored by Vigil and are ignored. */
function asFile(entry: StoredTreeEntry | undefined): TreeFile | undefined {
  return entry?.type === 'blob' ? { mode: entry.mode, oid: entry.oid } : undefined;
}

/**
 * The files that differ between two trees (either may be absent: the empty tree), limited to a
 * scope. Subtrees with equal ids are skipped without being read, so the cost grows with the
 * change, not with the tree. A path that is a file on one side and a folder on the other shows
 * as the file (deleted or added) plus every file under the folder. Sorted by path.
 */
export async function diffTrees(
  reader: TreeReader,
  oldTree: string | undefined,
  newTree: string | undefined,
  scope: PathScope,
): Promise<TreeChange[]> {
  const changes: TreeChange[] = [];
  let level: PendingPair[] = oldTree === newTree ? [] : [{ prefix: '', old: oldTree, new: newTree }];
  const read = (oid: string | undefined): Promise<readonly StoredTreeEntry[]> =>
    oid === undefined ? Promise.resolve([]) : reader.readTree(oid);
  while (level.length > 0) {
    const next: PendingPair[] = [];
    await mapLimit(level, readConcurrency, async (pair) => {
      const [oldRead, newRead] = await Promise.all([read(pair.old), read(pair.new)]);
      // A folder the scope only passes through: just the names on the way count (the others are neither entered nor covered).
      const reached = scope.namedIn(pair.prefix);
      const [oldEntries, newEntries] =
        reached === undefined
          ? [oldRead, newRead]
          : [oldRead.filter((entry) => reached.has(entry.name)), newRead.filter((entry) => reached.has(entry.name))];
      const visit = (
        name: string,
        oldEntry: StoredTreeEntry | undefined,
        newEntry: StoredTreeEntry | undefined,
      ): void => {
        const path = pair.prefix === '' ? name : `${pair.prefix}/${name}`;
        const oldSub = isTree(oldEntry) ? oldEntry.oid : undefined;
        const newSub = isTree(newEntry) ? newEntry.oid : undefined;
        if ((oldSub !== undefined || newSub !== undefined) && oldSub !== newSub && scope.enters(path)) {
          next.push({ prefix: path, old: oldSub, new: newSub });
        }
        const oldFile = asFile(oldEntry);
        const newFile = asFile(newEntry);
        if ((oldFile === undefined && newFile === undefined) || !scope.covers(path)) return;
        if (
          oldFile !== undefined &&
          newFile !== undefined &&
          oldFile.oid === newFile.oid &&
          oldFile.mode === newFile.mode
        )
          return;
        changes.push({ path, ...(oldFile && { old: oldFile }), ...(newFile && { new: newFile }) });
      };
      for (const [oldEntry, newEntry] of changedTreeItems(oldEntries, newEntries))
        visit((newEntry ?? oldEntry)?.name ?? '', oldEntry, newEntry);
    });
    level = next;
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The entry at `relativePath` inside a tree (a file or a folder), or undefined. */
export async function lookupPath(
  reader: TreeReader,
  tree: string | undefined,
  relativePath: string,
): Promise<StoredTreeEntry | undefined> {
  let current = tree;
  const parts = relativePath.split('/');
  for (const [index, part] of parts.entries()) {
    if (current === undefined) return undefined;
    const entry = (await reader.readTree(current)).find((candidate) => candidate.name === part);
    if (entry === undefined || index === parts.length - 1) return entry;
    current = entry.type === 'tree' ? entry.oid : undefined;
  }
  return undefined;
}
