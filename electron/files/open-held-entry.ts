import type { BigIntStats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { errnoCode, fileSystemError } from './file-system-error';
import type { HeldDirectory } from './held-directory';
import { liveReadFlags } from './read-live-file';

/** An entry of a held folder, opened for reading. */
export interface OpenedEntry {
  readonly handle: FileHandle;
  /** What was opened (an fstat): the file that is read, whatever its name points at by now. */
  readonly stats: BigIntStats;
}

/** The refusal when the name leads elsewhere than when it was checked. */
function becameLink(file: string): AppError {
  return new AppError(
    'conflict',
    `${file} was replaced by a symbolic link (or another file) after its path was checked; it was not followed, and nothing was read or written. Try again.`,
    { path: file },
  );
}

/**
 * Opens the entry `name` of a held folder for reading without following a symlink there
 * (`conflict`), then checks the folder is still the one held; where entries are reached by path,
 * also that the name still leads to the file that was opened. Errors name the file's real path:
 * `not_found`, `wrong_kind` (with `details.errno` EISDIR for a folder), and so on.
 */
export async function openHeldEntry(folder: HeldDirectory, name: string): Promise<OpenedEntry> {
  const file = path.join(folder.path, name);
  let handle: FileHandle;
  try {
    // Never through a symlink at the name; never blocking on a FIFO (it is refused after the fstat).
    handle = await open(folder.entry(name), liveReadFlags);
  } catch (error) {
    if (errnoCode(error) === 'ELOOP') throw becameLink(file);
    throw fileSystemError(error, 'open', file);
  }
  try {
    const stats = await handle.stat({ bigint: true });
    await folder.verify();
    if (!folder.isAnchored) {
      const named = await lstat(folder.entry(name), { bigint: true }).catch(() => undefined);
      if (named === undefined || named.ino !== stats.ino || named.dev !== stats.dev) throw becameLink(file);
    }
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw fileSystemError(error, 'inspect', file);
  }
}
