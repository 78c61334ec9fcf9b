import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RootScanCache, type RootListing } from './root-scan-cache';
import { maxStoredScans, pruneRootScans } from './root-scan-prune';

/** One folder of a root as the scan cache last read it (its times, whether they were too recent to trust, what it holds). */
export interface StoredFolder {
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly isRacy: boolean;
  readonly subfolders: readonly string[];
  readonly listing: RootListing;
}

/**
 * Where a one-shot process keeps what the scan cache read of each workspace root, so that the next
 * process checks every folder's times (one lstat each) instead of listing the whole root again
 * (GNU find over every file: most of a sandboxed command's cost in a large tree). What is loaded
 * is checked exactly as the resident core's memory is, folder by folder: a folder whose times
 * changed, or changed too recently to tell, is read again. The files live in Vigil's data folder,
 * which agent commands can neither read nor write.
 */
export interface RootScanStore {
  load(root: string): Promise<Map<string, StoredFolder> | undefined>;
  save(root: string, folders: ReadonlyMap<string, StoredFolder>): Promise<void>;
}

const formatVersion = 1;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isListing(value: unknown): value is RootListing {
  return (
    isRecord(value) &&
    Array.isArray(value.dotGits) &&
    value.dotGits.every(
      (item: unknown) => isRecord(item) && typeof item.path === 'string' && typeof item.isFolder === 'boolean',
    ) &&
    isStringArray(value.heads) &&
    isStringArray(value.settings) &&
    Array.isArray(value.links) &&
    value.links.every(
      (item: unknown) =>
        isRecord(item) &&
        typeof item.key === 'string' &&
        typeof item.count === 'number' &&
        typeof item.path === 'string',
    )
  );
}

function isStoredFolder(value: unknown): value is StoredFolder {
  const folder = value as Partial<Record<keyof StoredFolder, unknown>> | null;
  return (
    isRecord(folder) &&
    typeof folder.mtimeMs === 'number' &&
    typeof folder.ctimeMs === 'number' &&
    typeof folder.isRacy === 'boolean' &&
    isStringArray(folder.subfolders) &&
    isListing(folder.listing)
  );
}

/** The folders of a stored file, or undefined for anything this code did not write for this root (then the root is listed anew). */
function parseStored(text: string, root: string): Map<string, StoredFolder> | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(data) || data.version !== formatVersion || data.root !== root || !Array.isArray(data.folders))
    return undefined;
  // Every folder walked must be the root or inside it: a file listing others would scan outside the roots.
  const isInside = (folder: string): boolean => folder === root || folder.startsWith(`${root}${path.sep}`);
  const folders = new Map<string, StoredFolder>();
  for (const entry of data.folders as unknown[]) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !isStoredFolder(entry[1])) return undefined;
    if (!isInside(entry[0]) || !entry[1].subfolders.every(isInside)) return undefined;
    folders.set(entry[0], entry[1]);
  }
  return folders.has(root) ? folders : undefined;
}

/** Where one-shot commands keep their looks at the roots: a folder of Vigil's data folder. */
export function rootScanFolder(vigilHome: string): string {
  return path.join(vigilHome, 'sandbox-scans');
}

/**
 * The scan store in `folder` (under VIGIL_HOME): one file per root, named by a hash of its path,
 * at most `maxFiles` of them (see root-scan-prune.ts). Neither call ever fails: a file that cannot
 * be read or trusted means a full look at the root, a save that fails only loses the speed-up.
 */
export function fileRootScanStore(folder: string, options: { readonly maxFiles?: number } = {}): RootScanStore {
  const maxFiles = options.maxFiles ?? maxStoredScans;
  const fileOf = (root: string): string =>
    path.join(folder, `${createHash('sha256').update(root).digest('hex').slice(0, 32)}.json`);
  return {
    async load(root) {
      const file = fileOf(root);
      const text = await readFile(file, 'utf8').catch(() => undefined);
      const folders = text === undefined ? undefined : parseStored(text, root);
      // A use moves the file's time on: the prune keeps the most recently used roots.
      if (folders !== undefined) await utimes(file, new Date(), new Date()).catch(() => undefined);
      return folders;
    },
    // Written whole to a temp file first, then renamed over: a reader sees the old file or the new, never a part.
    async save(root, folders) {
      const file = fileOf(root);
      const temp = `${file}.${String(process.pid)}.${randomBytes(4).toString('hex')}.tmp`;
      const body = JSON.stringify({ version: formatVersion, root, folders: [...folders] });
      try {
        await mkdir(folder, { recursive: true, mode: 0o700 });
        const isNew = await lstat(file).then(
          () => false,
          () => true,
        );
        await writeFile(temp, body, { mode: 0o600, flag: 'wx' });
        await rename(temp, file);
        if (isNew) await pruneRootScans(folder, maxFiles);
      } catch {
        await rm(temp, { force: true }).catch(() => undefined);
      }
    },
  };
}

/** The scan cache of a CommandSandbox: kept in `vigilHome` for the next process (a one-shot command's), else in memory only. */
export function rootScans(vigilHome: string | undefined): RootScanCache {
  return new RootScanCache(vigilHome === undefined ? {} : { store: fileRootScanStore(rootScanFolder(vigilHome)) });
}
