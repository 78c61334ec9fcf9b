import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import { mapLimit } from '../electron/files';
import {
  encodeTree,
  fileModes,
  hashObject,
  ObjectStore,
  PackWriter,
  type TreeItem,
  typeOfMode,
} from '../electron/git-store';
import type { ProjectFile } from './object-layer-inputs';

/**
 * The writing cases of the object-layer bench, once through Vigil's own classes and once through
 * isomorphic-git's documented API, on the same inputs: blobs and the trees over them, and a pack
 * plus its index built from loose objects.
 */

/** Objects written at once by the loose writers (the same for both layers). */
const concurrency = 16;

/** Writes a blob, returns its id. */
type BlobWriter = (content: Buffer) => Promise<string>;
/** Writes a tree of these entries, returns its id. */
type TreeWriter = (items: readonly TreeItem[]) => Promise<string>;

/** The folder holding `folder` ('' for the root). */
function parentOf(folder: string): string {
  const slash = folder.lastIndexOf('/');
  return slash < 0 ? '' : folder.slice(0, slash);
}

/** Writes every blob, then the trees deepest first (each level many at once); returns the root tree's id. */
async function writeBlobsAndTrees(
  files: readonly ProjectFile[],
  contents: readonly Buffer[],
  writeBlob: BlobWriter,
  writeTree: TreeWriter,
  limit: number,
): Promise<string> {
  const blobs = await mapLimit(contents, limit, writeBlob);
  const entries = new Map<string, TreeItem[]>([['', []]]);
  const listOf = (folder: string): TreeItem[] => {
    let list = entries.get(folder);
    if (list === undefined) {
      list = [];
      entries.set(folder, list);
      if (folder !== '') listOf(parentOf(folder));
    }
    return list;
  };
  files.forEach((file, index) =>
    listOf(file.folder).push({ mode: fileModes.file, name: file.name, oid: blobs[index] ?? '' }),
  );
  const depth = (folder: string): number => (folder === '' ? 0 : folder.split('/').length);
  const deepest = Math.max(...[...entries.keys()].map(depth));
  for (let level = deepest; level > 0; level -= 1) {
    const folders = [...entries.keys()].filter((folder) => depth(folder) === level);
    const oids = await mapLimit(folders, limit, (folder) => writeTree(entries.get(folder) ?? []));
    folders.forEach((folder, index) =>
      listOf(parentOf(folder)).push({
        mode: fileModes.tree,
        name: path.posix.basename(folder),
        oid: oids[index] ?? '',
      }),
    );
  }
  return writeTree(entries.get('') ?? []);
}

/** Vigil, like for like: every object a loose file through `ObjectStore.writeLoose`. */
export async function vigilWriteLoose(
  gitdir: string,
  files: readonly ProjectFile[],
  contents: readonly Buffer[],
): Promise<string> {
  const store = new ObjectStore(gitdir);
  try {
    return await writeBlobsAndTrees(
      files,
      contents,
      (content) => store.writeLoose('blob', content),
      (items) => store.writeLoose('tree', encodeTree(items)),
      concurrency,
    );
  } finally {
    await store.close();
  }
}

/** Vigil as a big first snapshot does it: the blobs into one pack, then the trees into another (`PackWriter`). */
export async function vigilWritePacks(
  gitdir: string,
  files: readonly ProjectFile[],
  contents: readonly Buffer[],
): Promise<string> {
  const store = new ObjectStore(gitdir);
  const blobPack = await PackWriter.create(store.packDir);
  const treePack = await PackWriter.create(store.packDir);
  try {
    const add = async (pack: PackWriter, type: 'blob' | 'tree', content: Buffer): Promise<string> => {
      const oid = hashObject(type, content);
      await pack.add(type, content, oid);
      return oid;
    };
    // One object at a time: a pack is one sequential file.
    const root = await writeBlobsAndTrees(
      files,
      contents,
      (content) => add(blobPack, 'blob', content),
      (items) => add(treePack, 'tree', encodeTree(items)),
      1,
    );
    await blobPack.finish();
    await treePack.finish();
    return root;
  } catch (error) {
    await Promise.all([blobPack.abort(), treePack.abort()]);
    throw error;
  } finally {
    await store.close();
  }
}

/** isomorphic-git: `writeBlob` and `writeTree` (loose objects: its only way to write them). */
export async function isoWriteLoose(
  gitdir: string,
  files: readonly ProjectFile[],
  contents: readonly Buffer[],
): Promise<string> {
  return writeBlobsAndTrees(
    files,
    contents,
    (blob) => git.writeBlob({ fs, gitdir, blob }),
    (items) =>
      git.writeTree({
        fs,
        gitdir,
        tree: items.map((item) => ({ mode: item.mode, path: item.name, oid: item.oid, type: typeOfMode(item.mode) })),
      }),
    concurrency,
  );
}

/** Vigil's garbage-collection path: each loose object read (`ObjectStore.read`) into a level-6 `PackWriter`, which writes the index too. */
export async function vigilPackLoose(gitdir: string, oids: readonly string[]): Promise<string> {
  const store = new ObjectStore(gitdir);
  const writer = await PackWriter.create(store.packDir, 6);
  try {
    for (const oid of oids) {
      const object = await store.read(oid);
      await writer.add(object.type, object.content, oid);
    }
    const written = await writer.finish();
    if (written === undefined) throw new Error('empty pack');
    return written.name;
  } catch (error) {
    await writer.abort();
    throw error;
  } finally {
    await store.close();
  }
}

/** isomorphic-git: `packObjects` (write: true) then `indexPack` on the pack it wrote, one shared cache. */
export async function isoPackLoose(gitdir: string, oids: readonly string[]): Promise<string> {
  const cache = {};
  const { filename } = await git.packObjects({ fs, gitdir, oids: [...oids], write: true, cache });
  await git.indexPack({ fs, dir: gitdir, gitdir, filepath: path.posix.join('objects/pack', filename), cache });
  return filename.replace(/\.pack$/, '');
}
