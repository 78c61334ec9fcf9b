import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { directoryExclusion } from '../checkpoints';
import {
  errnoCode,
  type FileIdentity,
  fileIdentityOf,
  isSameIdentity,
  isVigilBookkeepingFile,
  mapLimit,
} from '../files';
import { isPathInside } from '../lib';

/** Every file (and symlink) in a command's scope, by absolute path, with its identity. */
export type FileVersions = ReadonlyMap<string, FileIdentity>;

/** One file a command created, changed or deleted, as the walks before and after it found. */
export interface FileEffect {
  readonly path: string;
  readonly change: 'created' | 'modified' | 'deleted';
  /** Its identity after the command (undefined: deleted). */
  readonly identity: FileIdentity | undefined;
}

/** Entries looked at in one folder at once. */
const statConcurrency = 32;

/**
 * What the walk leaves out: dependency, build, cache and version-control folders (no snapshot
 * holds them, so no restore touches them: who changed them does not matter), Vigil's own folders,
 * and its temp and record files.
 */
function isLeftOut(absolute: string, name: string, isFolder: boolean, ignored: readonly string[]): boolean {
  if (ignored.some((folder) => isPathInside(absolute, folder))) return true;
  return isFolder ? directoryExclusion(name) !== undefined : isVigilBookkeepingFile(name);
}

async function walkFolder(folder: string, ignored: readonly string[], into: Map<string, FileIdentity>): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES' || code === 'EPERM') return;
    throw error;
  }
  const folders: string[] = [];
  await mapLimit(entries, statConcurrency, async (entry) => {
    const absolute = path.join(folder, entry.name);
    if (isLeftOut(absolute, entry.name, entry.isDirectory(), ignored)) return;
    if (entry.isDirectory()) {
      folders.push(absolute);
      return;
    }
    const stats = await lstat(absolute, { bigint: true }).catch(() => undefined);
    if (stats !== undefined && !stats.isDirectory()) into.set(absolute, fileIdentityOf(stats));
  });
  for (const child of folders) await walkFolder(child, ignored, into);
}

/**
 * The files in `scope` (files, or folders walked whole; symlinks are not followed) with their
 * identities: read before and after a command, the difference is what it changed. A path that is
 * not there is simply absent.
 */
export async function readFileVersions(scope: readonly string[], ignored: readonly string[]): Promise<FileVersions> {
  const found = new Map<string, FileIdentity>();
  const distinct = [...new Set(scope)].filter(
    (item, _index, all) => !all.some((other) => other !== item && isPathInside(item, other)),
  );
  for (const item of distinct) {
    if (isLeftOut(item, path.basename(item), false, ignored)) continue;
    const stats = await lstat(item, { bigint: true }).catch(() => undefined);
    if (stats === undefined) continue;
    if (stats.isDirectory()) {
      if (directoryExclusion(path.basename(item)) === undefined) await walkFolder(item, ignored, found);
    } else found.set(item, fileIdentityOf(stats));
  }
  return found;
}

/** What changed between two walks of the same scope: created, modified (any other identity) and deleted files. A move is a deletion and a creation. */
export function compareFileVersions(before: FileVersions, after: FileVersions): FileEffect[] {
  const effects: FileEffect[] = [];
  for (const [file, identity] of after) {
    const old = before.get(file);
    if (old === undefined) effects.push({ path: file, change: 'created', identity });
    else if (!isSameIdentity(old, identity)) effects.push({ path: file, change: 'modified', identity });
  }
  for (const file of before.keys())
    if (!after.has(file)) effects.push({ path: file, change: 'deleted', identity: undefined });
  return effects.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
