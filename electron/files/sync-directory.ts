import { open } from 'node:fs/promises';

/**
 * Makes a directory's entries durable (a rename or a new file in it survives a power cut).
 * Windows cannot open a directory for fsync and NTFS journals renames itself, so it is skipped
 * there; file systems that refuse to fsync a directory (EINVAL, EISDIR, EPERM on some network
 * and FUSE mounts) are tolerated, as they offer no stronger guarantee to ask for.
 */
export async function syncDirectory(directory: string): Promise<void> {
  if (process.platform === 'win32') return;
  let handle;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EBADF')
      throw error;
  } finally {
    await handle?.close();
  }
}
