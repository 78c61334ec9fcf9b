import { AppError } from '../../../shared/errors';
import { errnoCode, fileSystemError, linkedFolderError, readLiveFile, readLiveLink } from '../../files';
import { fileModes } from '../../git-store';
import type { TreeFile } from './diff-tree-changes';

/** The refusal when a folder, FIFO, socket or device is where the walk found a file (worded as an EISDIR read for a folder). */
function notRegularFile(absolute: string, isFolder: boolean): AppError {
  return isFolder
    ? new AppError('wrong_kind', `Could not read ${absolute}: it is a directory.`, { path: absolute, errno: 'EISDIR' })
    : new AppError(
        'wrong_kind',
        `Could not read ${absolute}: it is not a regular file (a FIFO, socket or device was put there after the folder was read). Refresh and try again.`,
        { path: absolute },
      );
}

/**
 * The live bytes of a file the walk listed as `file` (a symlink's target as git stores it), read
 * after the walk, when an agent may have swapped what is at the name: undefined when it vanished
 * or is no longer the kind listed (a link that became a file, a file that became a link, which is
 * not followed), or a folder on the way below `dir` was swapped for another; a `wrong_kind` refusal when a
 * folder, FIFO, socket or device is there now, or a folder on the way is a symlink now (nothing is read
 * through it: the diff says so instead of showing the file empty). A FIFO is never waited on.
 */
export async function readLiveContent(absolute: string, file: TreeFile, dir: string): Promise<Uint8Array | undefined> {
  try {
    // Nor through a folder on the way that became a symlink: a file outside `dir` never shows as this one.
    if (file.mode === fileModes.symlink) {
      const link = await readLiveLink(absolute, dir);
      if (link.kind === 'linked-folder') throw linkedFolderError(absolute, link.linked);
      return link.kind === 'read' ? link.target : undefined;
    }
    const read = await readLiveFile(absolute, { within: dir });
    switch (read.kind) {
      case 'read':
        return read.content;
      case 'special':
        throw notRegularFile(absolute, read.stats.isDirectory());
      case 'linked-folder':
        throw linkedFolderError(absolute, read.linked);
      case 'changed':
      case 'oversize': // never: no cap is asked
        return undefined;
    }
  } catch (error) {
    if (['ENOENT', 'ENOTDIR', 'EINVAL'].includes(errnoCode(error) ?? '')) return undefined;
    throw fileSystemError(error, 'read', absolute);
  }
}
