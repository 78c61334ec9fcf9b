import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { errnoCode, fileSystemError } from './file-system-error';

/** Whether `directory` is an existing directory; false when it does not exist; an error when it is something else. */
async function isExistingDirectory(directory: string): Promise<boolean> {
  try {
    if ((await stat(directory)).isDirectory()) return true;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw fileSystemError(error, 'inspect', directory);
  }
  throw new AppError('wrong_kind', `Could not create a file under ${directory}: it is a file, not a directory.`, {
    path: directory,
  });
}

/**
 * Makes sure `directory` and its ancestors exist and returns the directories this call actually
 * created, outermost first (a directory another writer created meanwhile is not counted).
 */
export async function ensureDirectories(directory: string): Promise<readonly string[]> {
  const missing: string[] = [];
  for (let current = directory; !(await isExistingDirectory(current)); current = path.dirname(current)) {
    missing.push(current);
    if (path.dirname(current) === current) break;
  }
  const created: string[] = [];
  for (const dir of missing.reverse()) {
    try {
      await mkdir(dir);
      created.push(dir);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST' || !(await isExistingDirectory(dir)))
        throw fileSystemError(error, 'create the directory', dir);
    }
  }
  return created;
}
