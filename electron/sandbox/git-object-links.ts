import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, copyFile, lstat, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { isPathInside } from '../lib/path-rules';
import type { RootListing, RootScanCache } from './root-scan-cache';
import { distinctLinks, listFolder } from './root-scan';

type Link = RootListing['links'][number];

/** Object files copied at once. */
const batchSize = 32;

/** What making a command's git objects private did. */
export interface PrivateObjects {
  /** Object files that were hard links to files outside the roots, each now a copy of its own. */
  readonly copied: readonly string[];
  /** Notes for the command's result: each repository whose objects were copied. */
  readonly notes: readonly string[];
}

/** The object folder of each git directory inside the roots (a real folder, not a link to one). */
export async function objectFolders(gitDirs: readonly string[], roots: readonly string[]): Promise<string[]> {
  const folders: string[] = [];
  for (const gitDir of new Set(gitDirs)) {
    const objects = path.join(gitDir, 'objects');
    const stats = await lstat(objects).catch(() => undefined);
    if (stats?.isDirectory() === true && roots.some((root) => isPathInside(objects, root))) folders.push(objects);
  }
  return folders;
}

/** Whether `file` lies in one of the object folders. */
export function isInObjectFolder(file: string, folders: readonly string[]): boolean {
  return folders.some((folder) => file.startsWith(`${folder}${path.sep}`));
}

function cannotCopy(file: string, reason: string): AppError {
  return new AppError(
    'conflict',
    `The sandbox for this command could not be built: ${file} is a git object hard-linked to a file outside the workspace (a local \`git clone\` links its objects to the source repository's), and Vigil could not replace it with a private copy (${reason}). The command was not run: a write in place would change the other repository. Free some space or make the folder writable and try again, or clone the repository again with \`git clone --no-hardlinks SOURCE DEST\`.`,
    { path: file },
  );
}

/**
 * Replaces one object file by a copy of its own, as `git clone --no-hardlinks` would have made it:
 * a copy beside it (reflinked where the file system can), its mode kept, synced, renamed over the
 * name. A file git removed meanwhile (a `gc`) is left removed. Git's objects never change once
 * written, so the copy is the same object; the file outside keeps its content and its inode.
 */
async function copyOver(link: Link): Promise<boolean> {
  const folder = path.dirname(link.path);
  // `tmp_` is the prefix of git's own temporary object files: `git prune` removes one a crash left.
  const temp = path.join(folder, `tmp_vigil_${randomBytes(6).toString('hex')}`);
  try {
    const before = await lstat(link.path, { bigint: true }).catch(() => undefined);
    if (before === undefined || `${before.dev}:${before.ino}` !== link.key) return false;
    await copyFile(link.path, temp, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
    await chmod(temp, Number(before.mode & 0o7777n));
    const handle = await open(temp, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const now = await lstat(link.path, { bigint: true }).catch(() => undefined);
    if (now === undefined || `${now.dev}:${now.ino}` !== link.key) return false;
    await rename(temp, link.path);
    return true;
  } catch (error) {
    throw cannotCopy(link.path, error instanceof Error ? error.message : String(error));
  } finally {
    await rm(temp, { force: true }).catch(() => undefined);
  }
}

/** Syncs a folder, so that the renames in it last. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => undefined);
  if (handle === undefined) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}

function note(folder: string, count: number): string {
  return `Vigil replaced ${count} file(s) in ${folder} with private copies: they were hard links to files outside the workspace (a local \`git clone\` links its objects to the source repository's), so writing one in place would have changed the other repository. Git reads the copies as before (this is what \`git clone --no-hardlinks\` makes).`;
}

/**
 * Makes the roots' git objects their own: every file in an object folder whose inode has a name
 * outside the roots (`roots` listed in `links`) is replaced by a private copy before the command
 * runs, so that a command that makes one writable and writes it in place changes only the
 * workspace's copy. Read-only mounts cannot do this: thousands of loose objects are past the mount
 * budget, and a read-only object folder stops `git commit`. The object folders are read through
 * the scan cache: a command after the first looks again only at the folders whose entries changed.
 * Rejects with `conflict`, naming the file and the fix, when a copy cannot be made.
 */
export async function privateObjects(
  folders: readonly string[],
  links: readonly Link[],
  scans?: RootScanCache,
): Promise<PrivateObjects> {
  const objectLinks: Link[] = [];
  for (const folder of folders) objectLinks.push(...(await listFolder(folder, process.platform, scans)).links);
  const all = distinctLinks([...links, ...objectLinks]);
  const inside = new Map<string, number>();
  for (const link of all) inside.set(link.key, (inside.get(link.key) ?? 0) + 1);
  const shared = all.filter((link) => isInObjectFolder(link.path, folders) && (inside.get(link.key) ?? 0) < link.count);
  const copied: string[] = [];
  for (let start = 0; start < shared.length; start += batchSize) {
    const batch = shared.slice(start, start + batchSize);
    const done = await Promise.all(batch.map((link) => copyOver(link)));
    batch.forEach((link, index) => {
      if (done[index] === true) copied.push(link.path);
    });
  }
  await Promise.all([...new Set(copied.map((file) => path.dirname(file)))].map((folder) => syncFolder(folder)));
  const notes = folders.flatMap((folder) => {
    const count = copied.filter((file) => file.startsWith(`${folder}${path.sep}`)).length;
    return count === 0 ? [] : [note(folder, count)];
  });
  return { copied, notes };
}
