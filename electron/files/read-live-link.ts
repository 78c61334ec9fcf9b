import { constants } from 'node:fs';
import { lstat, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from './file-system-error';
import { optionalFlags } from './open-flags';
import { linkedFolderOnTheWay, type LinkedFolder } from './linked-folder';

/** What reading a live symlink's target found. */
export type LiveLinkRead =
  | { readonly kind: 'read'; readonly target: Buffer }
  /** A folder on the way below `within` is not where it was (a symlink or another folder took its place). */
  | { readonly kind: 'changed' }
  /** A folder on the way below `within` is a symbolic link now: nothing is read through it (see `linkedFolderError`). */
  | { readonly kind: 'linked-folder'; readonly linked: LinkedFolder };

/** `linked-folder` when a folder on the way is a symlink now, else `changed` (another folder, or moved back). */
async function notWhereItWas(link: string, within: string): Promise<LiveLinkRead> {
  const linked = await linkedFolderOnTheWay(link, within);
  return linked === undefined ? { kind: 'changed' } : { kind: 'linked-folder', linked };
}

/** The parent's open: a folder only (a FIFO there fails at once with ENOTDIR), never waiting. */
const parentFlags = constants.O_RDONLY | (optionalFlags.O_DIRECTORY ?? 0) | (optionalFlags.O_NONBLOCK ?? 0);

/** Whether a no-follow open of the folder `parent` failed because a symlink is there (Linux says ENOTDIR with O_DIRECTORY). */
async function isSymlinkOpenError(error: unknown, parent: string): Promise<boolean> {
  const code = errnoCode(error);
  if (code === 'ELOOP') return true;
  if (code !== 'ENOTDIR') return false;
  return (await lstat(parent).catch(() => undefined))?.isSymbolicLink() === true;
}

/**
 * Reads the target of the symlink `link`, inside a folder `within` another program controls, which may
 * swap a folder on the way for a symlink after the caller's check: a readlink by the full path would then
 * give another link's target text. On Linux the link's parent folder is opened (not through a final
 * symlink, below `within`), checked to be where it should be (`/proc/self/fd`, as `readLiveFile` checks a
 * file), and the link read inside that very folder. Elsewhere it is read by its path, as before. Errors of
 * the open and the readlink (ENOENT, ENOTDIR, EINVAL when it is no longer a link) are thrown as they are.
 */
export async function readLiveLink(link: string, within: string): Promise<LiveLinkRead> {
  if (process.platform !== 'linux') return { kind: 'read', target: await readlink(link, { encoding: 'buffer' }) };
  const parent = path.dirname(link);
  // `within` itself may be a symlink the user chose; only folders below it must not be one.
  const isWithin = path.relative(within, parent) === '';
  let handle: FileHandle;
  try {
    handle = await open(parent, isWithin ? parentFlags : parentFlags | (optionalFlags.O_NOFOLLOW ?? 0));
  } catch (error) {
    if (!isWithin && (await isSymlinkOpenError(error, parent))) return notWhereItWas(link, within);
    throw error;
  }
  try {
    const access = `/proc/self/fd/${String(handle.fd)}`;
    const [opened, root] = await Promise.all([
      readlink(access).catch(() => undefined),
      realpath(within).catch(() => undefined),
    ]);
    // Where that cannot be asked (no /proc), by its path as before.
    if (opened === undefined || root === undefined)
      return { kind: 'read', target: await readlink(link, { encoding: 'buffer' }) };
    if (opened !== path.join(root, path.relative(within, parent))) return await notWhereItWas(link, within);
    return { kind: 'read', target: await readlink(`${access}/${path.basename(link)}`, { encoding: 'buffer' }) };
  } finally {
    await handle.close();
  }
}
