import { readFile, stat } from 'node:fs/promises';
import { AppError } from '../../shared/errors';
import { resolveWriteTarget, stageWrite, syncDirectories, withPathLock, type AtomicContent, type AtomicWriteOptions, type AtomicWriteResult } from './atomic-write';
import { fileSystemError } from './file-system-error';
import { readFileIdentity } from './file-identity';

/** Options of a read-modify-write. */
export interface EditFileOptions extends Omit<AtomicWriteOptions, 'ifUnchanged'> {
  /** Refuse (`limit_exceeded`) to load a file larger than this many bytes (default 64 MiB). */
  readonly maxBytes?: number;
}

/** Files larger than this are not loaded into memory for an edit by default. */
const defaultMaxBytes = 64 * 1024 * 1024;

/**
 * Reads an existing file, lets `edit` compute its new content, and writes that atomically — all
 * under the path's write lock, so no other write in this process lands in between, and refusing
 * (`conflict`) if another process changed the file between the read and the rename. `edit` may
 * throw an AppError to refuse the edit: nothing is written then.
 */
export async function editFileAtomic(
  target: string,
  edit: (current: Buffer) => AtomicContent | Promise<AtomicContent>,
  options: EditFileOptions = {},
): Promise<AtomicWriteResult> {
  const resolved = await resolveWriteTarget(target, options);
  const maxBytes = options.maxBytes ?? defaultMaxBytes;
  const staged = await withPathLock(resolved, async () => {
    const identity = await readFileIdentity(resolved);
    if (identity === undefined) {
      throw new AppError('not_found', `${resolved} does not exist; nothing was changed.`, { path: resolved });
    }
    let current: Buffer;
    try {
      const { size } = await stat(resolved);
      if (size > maxBytes) {
        throw new AppError('limit_exceeded', `${resolved} is ${size} bytes, more than the ${maxBytes} bytes an edit loads; nothing was changed.`, {
          path: resolved,
          size,
          limit: maxBytes,
        });
      }
      current = await readFile(resolved);
    } catch (error) {
      throw fileSystemError(error, 'read', resolved);
    }
    const next = await edit(current);
    return stageWrite(resolved, next, { mode: options.mode, ifUnchanged: { identity } });
  });
  await syncDirectories(staged.directoriesToSync);
  return staged.result;
}
