import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RootScanCache, type RootListing } from './root-scan-cache';

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

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isListing(value: unknown): value is RootListing {
  const listing = value as Partial<Record<keyof RootListing, unknown>> | null;
  return (
    typeof listing === 'object' &&
    listing !== null &&
    Array.isArray(listing.dotGits) &&
    listing.dotGits.every(
      (item: { path?: unknown; isFolder?: unknown }) =>
        typeof item.path === 'string' && typeof item.isFolder === 'boolean',
    ) &&
    isStringArray(listing.heads) &&
    isStringArray(listing.settings) &&
    Array.isArray(listing.links) &&
    listing.links.every(
      (item: { key?: unknown; count?: unknown; path?: unknown }) =>
        typeof item.key === 'string' && typeof item.count === 'number' && typeof item.path === 'string',
    )
  );
}

function isStoredFolder(value: unknown): value is StoredFolder {
  const folder = value as Partial<Record<keyof StoredFolder, unknown>> | null;
  return (
    typeof folder === 'object' &&
    folder !== null &&
    typeof folder.mtimeMs === 'number' &&
    typeof folder.ctimeMs === 'number' &&
    typeof folder.isRacy === 'boolean' &&
    isStringArray(folder.subfolders) &&
    isListing(folder.listing)
  );
}

/** The folders of a stored file, or undefined for anything this code did not write for this root (then the root is listed anew). */
function parseStored(text: string, root: string): Map<string, StoredFolder> | undefined {
  let data: { version?: unknown; root?: unknown; folders?: unknown };
  try {
    data = JSON.parse(text) as typeof data;
  } catch {
    return undefined;
  }
  if (data.version !== formatVersion || data.root !== root || !Array.isArray(data.folders)) return undefined;
  const folders = new Map<string, StoredFolder>();
  for (const entry of data.folders as unknown[]) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !isStoredFolder(entry[1])) return undefined;
    folders.set(entry[0], entry[1]);
  }
  return folders.has(root) ? folders : undefined;
}

/** Where one-shot commands keep their looks at the roots: a folder of Vigil's data folder. */
export function rootScanFolder(vigilHome: string): string {
  return path.join(vigilHome, 'sandbox-scans');
}

/** The scan store in `folder` (under VIGIL_HOME): one file per root, named by a hash of its path. */
export function fileRootScanStore(folder: string): RootScanStore {
  const fileOf = (root: string): string =>
    path.join(folder, `${createHash('sha256').update(root).digest('hex').slice(0, 32)}.json`);
  return {
    async load(root) {
      const text = await readFile(fileOf(root), 'utf8').catch(() => undefined);
      return text === undefined ? undefined : parseStored(text, root);
    },
    // Best effort: a store that cannot be written only means the next process lists the root again.
    async save(root, folders) {
      const file = fileOf(root);
      const temp = `${file}.${String(process.pid)}.tmp`;
      const body = JSON.stringify({ version: formatVersion, root, folders: [...folders] });
      await mkdir(folder, { recursive: true, mode: 0o700 })
        .then(() => writeFile(temp, body, { mode: 0o600 }))
        .then(() => rename(temp, file))
        .catch(() => rm(temp, { force: true }));
    },
  };
}

/** The scan cache of a CommandSandbox: kept in `vigilHome` for the next process (a one-shot command's), else in memory only. */
export function rootScans(vigilHome: string | undefined): RootScanCache {
  return new RootScanCache(vigilHome === undefined ? {} : { store: fileRootScanStore(rootScanFolder(vigilHome)) });
}
