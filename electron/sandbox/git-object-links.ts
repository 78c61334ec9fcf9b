import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { isPathInside } from '../lib';
import { liveReadFlags, syncDirectory } from '../files';
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
    `The sandbox for this command could not be built: ${file} is a git object hard-linked to another file (outside the workspace, as a local \`git clone\` links its objects to the source repository's, or one Vigil keeps read-only), and Vigil could not replace it with a private copy (${reason}). The command was not run: a write in place would change the other repository. Free some space or make the folder writable and try again, or clone the repository again with \`git clone --no-hardlinks SOURCE DEST\`.`,
    { path: file },
  );
}

/** Copies what `source` holds into `target`, through their handles. */
async function copyHandle(source: FileHandle, target: FileHandle): Promise<void> {
  const buffer = Buffer.allocUnsafe(1 << 20);
  for (;;) {
    const { bytesRead } = await source.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) return;
    await target.write(buffer, 0, bytesRead);
  }
}

/** Whether an error only says that the name is no longer the file it was (removed, or now a symlink). */
function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR';
}

/**
 * Replaces one object file by a copy of its own, as `git clone --no-hardlinks` would have made it:
 * a copy beside it, its mode kept, synced, renamed over the name. A file git removed meanwhile (a
 * `gc`) is left removed. Git's objects never change once written, so the copy is the same object;
 * the file outside keeps its content and its inode. This runs outside the sandbox while other
 * commands may run in it, so no name is followed: the object is opened without following a link
 * and checked by its handle, and the copy is made, chmodded and synced through its own handle.
 */
async function copyOver(link: Link): Promise<boolean> {
  const folder = path.dirname(link.path);
  // `tmp_` is the prefix of git's own temporary object files: `git prune` removes one a crash left.
  const temp = path.join(folder, `tmp_vigil_${randomBytes(6).toString('hex')}`);
  let source: FileHandle | undefined;
  try {
    // Non-blocking: a FIFO a command put at the name must not hold this open until a writer comes
    // (its stat then fails the check below).
    source = await open(link.path, liveReadFlags);
    const before = await source.stat({ bigint: true });
    if (!before.isFile() || `${before.dev}:${before.ino}` !== link.key) return false;
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
    const target = await open(temp, flags, 0o600);
    try {
      await copyHandle(source, target);
      await target.chmod(Number(before.mode & 0o7777n));
      await target.sync();
    } finally {
      await target.close();
    }
    const now = await lstat(link.path, { bigint: true }).catch(() => undefined);
    if (now === undefined || `${now.dev}:${now.ino}` !== link.key) return false;
    await rename(temp, link.path);
    return true;
  } catch (error) {
    if (source === undefined && isGone(error)) return false;
    throw cannotCopy(link.path, error instanceof Error ? error.message : String(error));
  } finally {
    await source?.close().catch(() => undefined);
    await rm(temp, { force: true }).catch(() => undefined);
  }
}

/** Syncs a folder, so that the renames in it last (never waiting on a FIFO put in its place; a failure is not this copy's). */
async function syncFolder(folder: string): Promise<void> {
  await syncDirectory(folder).catch(() => undefined);
}

function note(folder: string, count: number): string {
  return `Vigil replaced ${count} file(s) in ${folder} with private copies: they were hard links to other files (a local \`git clone\` links its objects to the source repository's), so writing one in place would have changed those files too. Git reads the copies as before (this is what \`git clone --no-hardlinks\` makes).`;
}

/**
 * Makes the roots' git objects their own: every file in an object folder whose inode has another
 * name (outside the roots, or a protected file inside them) is replaced by a private copy before the command
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
  // Any other name counts, inside the roots too: an object linked to `.git/config` (or a hook) would
  // otherwise be a writable door to a file git runs code from. A repository's own objects have one name.
  const shared = all.filter((link) => isInObjectFolder(link.path, folders) && link.count > 1);
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
