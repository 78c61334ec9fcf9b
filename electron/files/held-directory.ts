import { constants, type BigIntStats } from 'node:fs';
import { lstat, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { errnoCode, fileSystemError } from './file-system-error';
import { syncDirectory } from './sync-directory';
import { optionalFlags } from './open-flags';

/** What identifies a folder while it exists: its device and inode (a folder has one place, no hard links). */
export interface DirectoryIdentity {
  readonly dev: string;
  readonly ino: string;
}

/**
 * A folder resolved once and held: operations on its entries reach exactly this folder, even if a
 * path leading to it is swapped for a symlink meanwhile. On Linux it is an open descriptor reached
 * through `/proc/self/fd/N` (what `openat`/`renameat` give in C); elsewhere it is its path,
 * checked by identity before and after each step.
 */
export interface HeldDirectory {
  /** Where the folder was when it was held (canonical, absolute). */
  readonly path: string;
  /** Whether entries are reached through the held descriptor itself (not by path, checked). */
  readonly isAnchored: boolean;
  /** A path naming the folder itself for fs calls (`/proc/self/fd/N`, or the folder's path). */
  readonly access: string;
  /** A path that reaches the entry `name` inside exactly this folder. */
  entry(name: string): string;
  /** Refuses (`conflict`) unless the folder is still the one at `path`: not moved, removed or swapped. */
  verify(): Promise<void>;
  /** Makes the folder's entries durable. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

const openFlags = constants.O_RDONLY | (optionalFlags.O_DIRECTORY ?? 0) | (optionalFlags.O_NOFOLLOW ?? 0);

/** Whether `/proc/self/fd` works here (Linux with /proc mounted), probed once. */
let procFdProbe: Promise<boolean> | undefined;

function hasProcFd(): Promise<boolean> {
  procFdProbe ??=
    process.platform === 'linux'
      ? readlink('/proc/self/fd/0')
          .then(() => true)
          .catch(() => false)
      : Promise.resolve(false);
  return procFdProbe;
}

/**
 * Checks folders by path and identity from now on, as on platforms without `/proc/self/fd`
 * (false: back to probing). A seam for tests, so the portable way is exercised on Linux too.
 */
export function checkFoldersByPath(isByPath: boolean): void {
  procFdProbe = isByPath ? Promise.resolve(false) : undefined;
}

/** The identity in a stat. */
export function directoryIdentityOf(stats: BigIntStats): DirectoryIdentity {
  return { dev: String(stats.dev), ino: String(stats.ino) };
}

/** Whether two identities name the same folder. */
export function isSameDirectory(a: DirectoryIdentity, b: DirectoryIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** The refusal when the folder is not (or no longer) the one that was checked. */
export function folderChanged(directory: string, what: string): AppError {
  return new AppError(
    'conflict',
    `The folder ${directory} ${what} after the path was checked (a symbolic link or a folder was swapped in), so nothing was done there. Check the folder and try again.`,
    { path: directory },
  );
}

/** Errors of opening or inspecting a folder that mean it is no longer the folder that was checked. */
const changedCodes = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

function openError(error: unknown, directory: string): AppError {
  if (changedCodes.has(errnoCode(error) ?? '')) return folderChanged(directory, 'was replaced or removed');
  return fileSystemError(error, 'open the folder', directory);
}

/** A folder held by an open descriptor, reached through /proc/self/fd. */
function anchored(directory: string, handle: FileHandle): HeldDirectory {
  const access = `/proc/self/fd/${handle.fd}`;
  return {
    path: directory,
    isAnchored: true,
    access,
    entry: (name) => `${access}/${name}`,
    async verify() {
      // The kernel's own name for the open folder: where it really is now, no symlink involved.
      if ((await readlink(access)) !== directory) throw folderChanged(directory, 'moved or was removed');
    },
    sync: () => handle.sync().catch((error: unknown) => tolerateSync(error, directory)),
    close: () => handle.close(),
  };
}

/** Folders that cannot be fsynced are tolerated, as `syncDirectory` does. */
function tolerateSync(error: unknown, directory: string): void {
  const code = errnoCode(error);
  if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EBADF')
    throw fileSystemError(error, 'flush the folder', directory);
}

/** The identity of what is at `directory` without following a final link; refuses anything but a folder. */
async function folderIdentityAt(directory: string): Promise<DirectoryIdentity> {
  let stats: BigIntStats;
  try {
    stats = await lstat(directory, { bigint: true });
  } catch (error) {
    throw openError(error, directory);
  }
  if (!stats.isDirectory())
    throw folderChanged(directory, stats.isSymbolicLink() ? 'became a symbolic link' : 'became a file');
  return directoryIdentityOf(stats);
}

/** A folder checked by path and identity (no descriptor-relative calls on this platform). */
function byPath(directory: string, identity: DirectoryIdentity): HeldDirectory {
  return {
    path: directory,
    isAnchored: false,
    access: directory,
    entry: (name) => path.join(directory, name),
    async verify() {
      if (!isSameDirectory(await folderIdentityAt(directory), identity)) throw folderChanged(directory, 'was replaced');
    },
    sync: () => syncDirectory(directory, 'refuse').catch((error: unknown) => tolerateSync(error, directory)),
    close: () => Promise.resolve(),
  };
}

/** Opens `access` as a folder without following a final symlink, and checks it is `directory` (and `expected`). */
async function openAnchored(
  directory: string,
  access: string,
  expected: DirectoryIdentity | undefined,
): Promise<HeldDirectory> {
  let handle: FileHandle;
  try {
    handle = await open(access, openFlags);
  } catch (error) {
    throw openError(error, directory);
  }
  try {
    // O_DIRECTORY and O_NOFOLLOW made sure it is a folder; its identity matters only against one checked earlier.
    if (expected !== undefined && !isSameDirectory(directoryIdentityOf(await handle.stat({ bigint: true })), expected))
      throw folderChanged(directory, 'was replaced');
    const held = anchored(directory, handle);
    await held.verify();
    return held;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Holds the folder at `directory` (a canonical path), refusing (`conflict`) when it is not a
 * folder there any more, is reached through a symlink, or is not `expected` (the folder checked
 * earlier). The caller closes it.
 */
export async function holdDirectory(directory: string, expected?: DirectoryIdentity): Promise<HeldDirectory> {
  if (await hasProcFd()) return openAnchored(directory, directory, expected);
  const identity = await folderIdentityAt(directory);
  if (expected !== undefined && !isSameDirectory(identity, expected)) throw folderChanged(directory, 'was replaced');
  const real = await realpath(directory).catch((error: unknown) => {
    throw openError(error, directory);
  });
  if (real !== directory || !isSameDirectory(await folderIdentityAt(directory), identity))
    throw folderChanged(directory, 'is reached through a symbolic link');
  return byPath(directory, identity);
}

/** Holds the folder `name` inside a held folder, refusing a symlink there. The caller closes it. */
export async function holdChildDirectory(parent: HeldDirectory, name: string): Promise<HeldDirectory> {
  const directory = path.join(parent.path, name);
  if (parent.isAnchored) return openAnchored(directory, parent.entry(name), undefined);
  await parent.verify();
  return byPath(directory, await folderIdentityAt(directory));
}
