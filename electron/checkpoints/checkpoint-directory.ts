import { realpath, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { errnoCode, fileSystemError } from '../files';

/** Whether a resolved path is a file-system root (`/`, `C:\`). */
function isRoot(resolved: string): boolean {
  return path.parse(resolved).root === resolved;
}

/** The directories refused by default: the home directory itself (roots are always refused). */
export async function defaultRefusedDirs(): Promise<string[]> {
  const home = os.homedir();
  return [await realpath(home).catch(() => home)];
}

function checkAbsolute(dir: string): void {
  if (typeof dir !== 'string' || dir.trim() === '' || dir.includes('\0')) {
    throw new AppError(
      'invalid_request',
      'A directory is required: give the absolute path of the folder to checkpoint.',
      { field: 'dir' },
    );
  }
  if (!path.isAbsolute(dir)) {
    throw new AppError('invalid_request', `"${dir}" is not an absolute path; give the full path of the folder.`, {
      field: 'dir',
    });
  }
}

/**
 * The directory a checkpoint is taken of: it must exist and be a folder; its symlinks are resolved
 * (so one folder has one timeline however it is named); a file-system root and the home directory
 * itself are refused.
 */
export async function resolveCheckpointDirectory(dir: string, refused: readonly string[]): Promise<string> {
  checkAbsolute(dir);
  let resolved: string;
  try {
    resolved = await realpath(dir);
    if (!(await stat(resolved)).isDirectory()) {
      throw new AppError('wrong_kind', `${dir} is a file, not a folder; checkpoints are taken of folders.`, {
        path: dir,
      });
    }
  } catch (error) {
    if (errnoCode(error) === 'ENOENT')
      throw new AppError('not_found', `The folder ${dir} does not exist.`, { path: dir });
    throw fileSystemError(error, 'open the folder', dir);
  }
  if (isRoot(resolved)) {
    throw new AppError(
      'forbidden_path',
      `Refusing to checkpoint ${resolved}: it is the root of the file system. Checkpoint a project folder instead.`,
      { path: resolved },
    );
  }
  if (refused.includes(resolved)) {
    throw new AppError(
      'forbidden_path',
      `Refusing to checkpoint ${resolved}: it is your home directory itself. Checkpoint a project folder inside it instead.`,
      { path: resolved },
    );
  }
  return resolved;
}

/**
 * The directory a timeline is looked up for: resolved like `resolveCheckpointDirectory` while it
 * exists, else taken as written (a deleted folder's checkpoints can still be listed and restored).
 */
export async function resolveTimelineDirectory(dir: string): Promise<string> {
  checkAbsolute(dir);
  try {
    return await realpath(dir);
  } catch {
    return path.resolve(dir);
  }
}
