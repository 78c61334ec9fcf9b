import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { isVigilTempFile, mapLimit } from '../../files';
import { absoluteIn, lookupPath, type TreeReader } from '../compare';

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

/** Folders listed and files read at once, as the writes do. */
const warmUpConcurrency = 16;

/**
 * The most content read ahead that is kept for the writes (the store's own cache keeps only small
 * objects): a blob past it is read again by its write, as without a warm-up.
 */
const keptBlobBytes = 64 * 1024 * 1024;

/** What a warm-up found: the Vigil temp files by folder, and the content it read, by blob id. */
export interface WarmedRestore {
  readonly temps: ReadonlyMap<string, readonly string[]>;
  readonly blobs: ReadonlyMap<string, Uint8Array>;
}

/** The Vigil temp files in `folder` (absolute paths), or undefined when it cannot be listed. */
async function listTemps(folder: string): Promise<string[] | undefined> {
  try {
    return (await readdir(folder)).filter(isVigilTempFile).map((name) => path.join(folder, name));
  } catch {
    return undefined;
  }
}

/** Content read ahead, kept up to `keptBlobBytes` in all. */
class KeptBlobs {
  readonly blobs = new Map<string, Uint8Array>();
  #bytes = 0;

  keep(oid: string, content: Uint8Array): void {
    if (this.blobs.has(oid) || this.#bytes + content.byteLength > keptBlobBytes) return;
    this.blobs.set(oid, content);
    this.#bytes += content.byteLength;
  }
}

/** Reads the checkpoint's version of a named file and keeps it for its write; a failure is met again by the write. */
async function readAhead(input: WarmUpInput, relativePath: string, kept: KeptBlobs): Promise<void> {
  try {
    const entry = await lookupPath(input.reader, input.checkpointTree, relativePath);
    if (entry !== undefined && entry.type === 'blob') kept.keep(entry.oid, await input.readBlob(entry.oid));
  } catch {
    // The write reads it again and reports what went wrong.
  }
}

/**
 * The reading a restore of named paths can do while its pre-rollback snapshot runs (its main
 * thread mostly waits on the hashing worker then), so that the writes after it have less to do:
 * the checkpoint's version of each named file is read and kept (the writes take it from there),
 * and the named files' folders are listed for Vigil temp files (the writes then sweep the stale
 * ones among them, without listing those folders again). Reads only: nothing is written or
 * deleted before the snapshot is durable.
 */
export async function warmUpRestore(input: WarmUpInput): Promise<WarmedRestore> {
  const folders = [...new Set(input.paths.map((relativePath) => path.dirname(absoluteIn(input.dir, relativePath))))];
  const kept = new KeptBlobs();
  const [listings] = await Promise.all([
    mapLimit(folders, warmUpConcurrency, async (folder) => [folder, await listTemps(folder)] as const),
    mapLimit(input.paths, warmUpConcurrency, (relativePath) => readAhead(input, relativePath, kept)),
  ]);
  const temps = new Map<string, readonly string[]>();
  for (const [folder, found] of listings) if (found !== undefined) temps.set(folder, found);
  return { temps, blobs: kept.blobs };
}
