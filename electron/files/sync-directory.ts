import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { AppError } from '../../shared/errors';

/**
 * What a final symbolic link at the folder's path means: `follow` it (Vigil's own data folders, which
 * a user may link elsewhere), or `refuse` it (a workspace folder named by its real path, so a link
 * there was put in its place after the write).
 */
export type FinalLink = 'follow' | 'refuse';

/**
 * The open of a folder for its fsync. O_DIRECTORY makes anything but a folder fail at once with
 * ENOTDIR: a plain read-only open of a FIFO an agent put in a folder's place waits for a writer for
 * ever, holding a libuv pool thread. O_NONBLOCK keeps that promise on a system that checks
 * O_DIRECTORY only after the open (it changes nothing for a folder).
 */
const folderFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK;

/** Errors of a folder's open that mean something other than a folder is at its path. */
const notFolderCodes: Readonly<Record<FinalLink, ReadonlySet<string>>> = {
  follow: new Set(['ENOTDIR']),
  refuse: new Set(['ENOTDIR', 'ELOOP']),
};

/**
 * Makes a directory's entries durable (a rename or a new file in it survives a power cut).
 * Windows cannot open a directory for fsync and NTFS journals renames itself, so it is skipped
 * there; file systems that refuse to fsync a directory (EINVAL, EISDIR, EPERM on some network
 * and FUSE mounts) are tolerated, as they offer no stronger guarantee to ask for. Anything but a
 * folder at `directory` (a file, a FIFO, or with `refuse` a symbolic link) fails at once, `wrong_kind`.
 */
export async function syncDirectory(directory: string, finalLink: FinalLink = 'follow'): Promise<void> {
  if (process.platform === 'win32') return;
  let handle;
  try {
    handle = await open(directory, finalLink === 'refuse' ? folderFlags | constants.O_NOFOLLOW : folderFlags);
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (handle === undefined && code !== undefined && notFolderCodes[finalLink].has(code))
      throw notAFolder(directory, code);
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EBADF')
      throw error;
  } finally {
    await handle?.close();
  }
}

/** The error of a folder whose place something else took (or a folder above it), naming the folder. */
function notAFolder(directory: string, errno: string): AppError {
  return new AppError(
    'wrong_kind',
    `Could not flush the folder ${directory}: it is not a folder (a file, a FIFO or a symbolic link took its place, or the place of a folder above it), so what was just written in it is not known to be durable.`,
    { path: directory, errno },
  );
}
