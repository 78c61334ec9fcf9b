import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { mapLimit } from '../../files/map-limit';
import { isVigilTempFile } from '../../files/vigil-temp-name';
import { lookupPath, type TreeReader } from '../diff/diff-tree-changes';
import { absoluteIn } from './restore-disk';

/** What a restore of named paths looks up while its pre-rollback snapshot runs. */
export interface WarmUpInput {
  readonly dir: string;
  /** The checkpoint's root tree (undefined: empty). */
  readonly checkpointTree: string | undefined;
  /** The named paths, relative, `/`-separated. */
  readonly paths: readonly string[];
  readonly reader: TreeReader;
  readBlob(oid: string): Promise<Uint8Array>;
}

/** Folders listed and files read at once, as the writes do: the content read ahead is held in memory meanwhile. */
const warmUpConcurrency = 16;

/** The Vigil temp files in `folder` (absolute paths), or undefined when it cannot be listed. */
async function listTemps(folder: string): Promise<string[] | undefined> {
  try {
    return (await readdir(folder)).filter(isVigilTempFile).map((name) => path.join(folder, name));
  } catch {
    return undefined;
  }
}

/** Reads the checkpoint's version of a named file into the store's cache of recent objects; a failure is met again by the write. */
async function readAhead(input: WarmUpInput, relativePath: string): Promise<void> {
  try {
    const entry = await lookupPath(input.reader, input.checkpointTree, relativePath);
    if (entry !== undefined && entry.type === 'blob') await input.readBlob(entry.oid);
  } catch {
    // The write reads it again and reports what went wrong.
  }
}

/**
 * The reading a restore of named paths can do while its pre-rollback snapshot runs (its main
 * thread mostly waits on the hashing worker then), so that the writes after it have less to do:
 * the checkpoint's version of each named file is read into the store's cache (the writes read it
 * from there), and the named files' folders are listed for Vigil temp files (the writes then sweep
 * the stale ones among them, without listing those folders again). Reads only: nothing is written
 * or deleted before the snapshot is durable. Resolves to the temp files found, by folder.
 */
export async function warmUpRestore(input: WarmUpInput): Promise<ReadonlyMap<string, readonly string[]>> {
  const folders = [...new Set(input.paths.map((relativePath) => path.dirname(absoluteIn(input.dir, relativePath))))];
  const [listings] = await Promise.all([
    mapLimit(folders, warmUpConcurrency, async (folder) => [folder, await listTemps(folder)] as const),
    mapLimit(input.paths, warmUpConcurrency, (relativePath) => readAhead(input, relativePath)),
  ]);
  const listed = new Map<string, readonly string[]>();
  for (const [folder, temps] of listings) if (temps !== undefined) listed.set(folder, temps);
  return listed;
}
