import fs from 'node:fs';
import git from 'isomorphic-git';
import { decodeTree, encodeTree, fileModes, hashObject, ObjectStore, type TreeItem } from '../electron/git-store';

/**
 * The reading cases of the object-layer bench, through Vigil's `ObjectStore` and through
 * isomorphic-git's typed readers (`readBlob`, `readTree`, `readCommit`, as its docs advise over
 * `readObject` when the type is known) with one shared cache: every object of a pack, and a walk
 * of the newest commit's whole tree (what a restore or a diff of a checkpoint reads). Trees are
 * read as entries by both. Nothing is checked while timed: `checkReads` hashes the results after.
 */

/** One object as a reader handed it over: bytes, or a tree's entries. */
export type ReadResult =
  | { readonly oid: string; readonly type: 'blob' | 'commit'; readonly content: Uint8Array }
  | { readonly oid: string; readonly type: 'tree'; readonly items: readonly TreeItem[] };

/** An object to read, by id and type (as `git cat-file --batch-check` lists them). */
export interface ObjectRef {
  readonly oid: string;
  readonly type: string;
}

/** What a read pass saw, once checked. */
export interface ReadTally {
  readonly trees: number;
  readonly blobs: number;
  readonly commits: number;
  /** Objects whose content (a tree: its entries encoded again) does not hash to their id; must be 0. */
  readonly mismatches: number;
}

/** Counts the results and hashes each back to its id. */
export function checkReads(results: readonly ReadResult[]): ReadTally {
  const tally = { trees: 0, blobs: 0, commits: 0, mismatches: 0 };
  for (const result of results) {
    const content = result.type === 'tree' ? encodeTree(result.items) : result.content;
    if (hashObject(result.type, content) !== result.oid) tally.mismatches += 1;
    if (result.type === 'tree') tally.trees += 1;
    else if (result.type === 'blob') tally.blobs += 1;
    else tally.commits += 1;
  }
  return tally;
}

/** Reads objects of known type. */
interface TypedReader {
  blob(oid: string): Promise<ReadResult>;
  tree(oid: string): Promise<Extract<ReadResult, { type: 'tree' }>>;
  commit(oid: string): Promise<Extract<ReadResult, { type: 'blob' | 'commit' }>>;
}

function vigilReader(store: ObjectStore): TypedReader {
  return {
    blob: async (oid) => ({ oid, type: 'blob', content: await store.readTyped(oid, 'blob') }),
    tree: async (oid) => ({ oid, type: 'tree', items: decodeTree(await store.readTyped(oid, 'tree')) }),
    commit: async (oid) => ({ oid, type: 'commit', content: await store.readTyped(oid, 'commit') }),
  };
}

function isoReader(gitdir: string, cache: object): TypedReader {
  return {
    blob: async (oid) => ({ oid, type: 'blob', content: (await git.readBlob({ fs, gitdir, oid, cache })).blob }),
    tree: async (oid) => {
      const { oid: id, tree } = await git.readTree({ fs, gitdir, oid, cache });
      // isomorphic-git reports a folder's mode as 040000; git (and Vigil) write 40000.
      return {
        oid: id,
        type: 'tree',
        items: tree.map((entry) => ({
          mode: entry.mode === '040000' ? fileModes.tree : entry.mode,
          name: entry.path,
          oid: entry.oid,
        })),
      };
    },
    // Unsigned commits: the payload is the whole object.
    commit: async (oid) => ({
      oid,
      type: 'commit',
      content: Buffer.from((await git.readCommit({ fs, gitdir, oid, cache })).payload),
    }),
  };
}

/** Reads every listed object, one at a time, in list order. */
async function readAll(objects: readonly ObjectRef[], reader: TypedReader): Promise<ReadResult[]> {
  const results: ReadResult[] = [];
  for (const { oid, type } of objects) {
    results.push(await (type === 'tree' ? reader.tree(oid) : type === 'blob' ? reader.blob(oid) : reader.commit(oid)));
  }
  return results;
}

/** Reads the commit, then every tree and blob under it, depth first. */
async function readHead(head: string, reader: TypedReader): Promise<ReadResult[]> {
  const commit = await reader.commit(head);
  const results: ReadResult[] = [commit];
  const walk = async (oid: string): Promise<void> => {
    const tree = await reader.tree(oid);
    results.push(tree);
    for (const item of tree.items) {
      if (item.mode === fileModes.tree) await walk(item.oid);
      else results.push(await reader.blob(item.oid));
    }
  };
  await walk(/^tree ([0-9a-f]{40})/.exec(Buffer.from(commit.content).toString('latin1'))?.[1] ?? '');
  return results;
}

/** Vigil: every object through `ObjectStore.readTyped` (trees decoded), on a store opened for this pass. */
export async function vigilReadAll(gitdir: string, objects: readonly ObjectRef[]): Promise<ReadResult[]> {
  const store = new ObjectStore(gitdir);
  try {
    await store.refresh();
    return await readAll(objects, vigilReader(store));
  } finally {
    await store.close();
  }
}

/** isomorphic-git: every object through its typed readers, with a cache made for this pass. */
export function isoReadAll(gitdir: string, objects: readonly ObjectRef[]): Promise<ReadResult[]> {
  return readAll(objects, isoReader(gitdir, {}));
}

/** Vigil: the newest commit's whole tree, on a store opened for this pass. */
export async function vigilReadHead(gitdir: string, head: string): Promise<ReadResult[]> {
  const store = new ObjectStore(gitdir);
  try {
    await store.refresh();
    return await readHead(head, vigilReader(store));
  } finally {
    await store.close();
  }
}

/** isomorphic-git: the newest commit's whole tree, with a cache made for this pass. */
export function isoReadHead(gitdir: string, head: string): Promise<ReadResult[]> {
  return readHead(head, isoReader(gitdir, {}));
}
