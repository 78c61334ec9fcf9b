/*
 * What keeps a checkpoint's walk and reads inside the workspace while an agent swaps its folders. The
 * agent's sandbox hides folders such as ~/.ssh from it, but it may rename a folder of its workspace and
 * put a symlink to one there between Vigil's listing of the parent and its listing or read of the folder;
 * Vigil runs outside the sandbox, so a listing or open by path would then read the hidden folder. On
 * Linux each folder is opened without following a final symlink and listed through that very descriptor
 * (`/proc/self/fd/N`), and each folder and file opened is checked to be where the walk means it to be
 * (the kernel's own name for the descriptor); elsewhere the walk lists by path as before.
 */
import { constants } from 'node:fs';
import { readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { optionalFlags } from '../../files';

/** How a folder below the workspace's top is opened: a folder only, never through a symlink at its name, never waiting. */
export const walkFolderFlags =
  constants.O_RDONLY |
  (optionalFlags.O_DIRECTORY ?? 0) |
  (optionalFlags.O_NOFOLLOW ?? 0) |
  (optionalFlags.O_NONBLOCK ?? 0);

/** How the workspace's top folder is opened: the user may have chosen it through a symlink. */
export const topFolderFlags = walkFolderFlags & ~(optionalFlags.O_NOFOLLOW ?? 0);

/** A path naming the open descriptor `fd` itself (Linux). */
export function descriptorAccess(fd: number): string {
  return `/proc/self/fd/${String(fd)}`;
}

/** Whether descriptors can be named and located through `/proc/self/fd` here. */
export const isDescriptorAccess = process.platform === 'linux';

/** Where `rel` (a `/`-separated path below the workspace) must be: below the workspace's real path. */
export function expectedPath(realRoot: string, rel: string): string {
  return rel === '' ? realRoot : path.join(realRoot, rel);
}

/** The workspace's real path, for `expectedPath`; undefined when it cannot be resolved (nothing is then checked: every open fails anyway). */
export function realRootOf(root: string): Promise<string | undefined> {
  return isDescriptorAccess ? realpath(root).catch(() => undefined) : Promise.resolve(undefined);
}

/** The kernel's name for the open descriptor `fd`, which no symlink can fake; undefined where it cannot be asked. */
export function openedPath(fd: number): Promise<string | undefined> {
  return isDescriptorAccess ? readlink(descriptorAccess(fd)).catch(() => undefined) : Promise.resolve(undefined);
}

/**
 * Whether the kernel's name `opened` for a file descriptor says it is the file at `expected`: still
 * there, or there until a rename over it or a delete since the open (the kernel then adds
 * " (deleted)": an editor's or an agent's atomic save), so it was the workspace's file. True where
 * that cannot be asked (no `/proc`, no expected path).
 */
export function isOpenedName(opened: string | undefined, expected: string | undefined): boolean {
  return opened === undefined || expected === undefined || opened === expected || opened === `${expected} (deleted)`;
}

/** Whether the open file descriptor `fd` is the file at `expected` (see `isOpenedName`). */
export async function isOpenedAt(fd: number, expected: string | undefined): Promise<boolean> {
  return expected === undefined || isOpenedName(await openedPath(fd), expected);
}

/** A file found elsewhere than where it should be is opened again this many times in all (a rename away, then a new file at its name). */
export const maxFileOpens = 3;

/**
 * Runs `task` once fewer than `limit` others run through the same gate. The main-thread walk lists
 * up to 4 folders per level of its recursion (4^depth at once), which cost nothing while a listing
 * was one `readdir`; a folder held open across its checks and listing must be bounded, or a wide tree
 * runs out of descriptors (EMFILE) and its folders are recorded unreadable.
 */
export function createGate(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    // A slot is handed over by the task that frees it, so `running` stays counted for the waiter.
    if (running < limit) running += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next === undefined) running -= 1;
      else next();
    }
  };
}

/** The error of a folder that was not where the walk meant to list it (an agent swapped a folder on its way). */
export function folderMoved(absolute: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${absolute} moved while it was walked`), { code: 'EMOVED' });
}
