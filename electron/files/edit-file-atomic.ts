import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError, isAppError } from '../../shared/errors';
import {
  resolveWriteTarget,
  stageWrite,
  syncDirectories,
  withPathLock,
  type AtomicContent,
  type AtomicWriteOptions,
  type AtomicWriteResult,
} from './atomic-write';
import { replaceEntry } from './replace-entry';
import { fileSystemError } from './file-system-error';
import { fileIdentityOf, readFileIdentity } from './file-identity';
import { withHeldFolder, type AnchoredFile } from './folder-anchor';
import { openHeldEntry, type OpenedEntry } from './open-held-entry';
import { refuseTempName } from './write-anchored-file';

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
        throw new AppError(
          'limit_exceeded',
          `${resolved} is ${size} bytes, more than the ${maxBytes} bytes an edit loads; nothing was changed.`,
          {
            path: resolved,
            size,
            limit: maxBytes,
          },
        );
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

/** Reads the whole of an opened file, refusing folders, special files and files over `maxBytes`. */
async function readOpened(opened: OpenedEntry, file: string, maxBytes: number): Promise<Buffer> {
  const { stats, handle } = opened;
  if (stats.isDirectory())
    throw new AppError('wrong_kind', `Could not read ${file}: it is a directory.`, { path: file, errno: 'EISDIR' });
  if (!stats.isFile())
    throw new AppError('wrong_kind', `${file} is not a regular file (a FIFO, socket or device); nothing was changed.`, {
      path: file,
    });
  if (stats.size > BigInt(maxBytes)) {
    throw new AppError(
      'limit_exceeded',
      `${file} is ${stats.size} bytes, more than the ${maxBytes} bytes an edit loads; nothing was changed.`,
      { path: file, size: Number(stats.size), limit: maxBytes },
    );
  }
  try {
    return await handle.readFile();
  } catch (error) {
    throw fileSystemError(error, 'read', file);
  }
}

/**
 * `editFileAtomic` for a file whose folder was anchored when its path was checked: it is read and
 * replaced in exactly that folder, never through a symlink swapped in meanwhile (`conflict`).
 */
export async function editAnchoredFile(
  file: AnchoredFile,
  edit: (current: Buffer) => AtomicContent | Promise<AtomicContent>,
  options: Pick<EditFileOptions, 'maxBytes'> = {},
): Promise<AtomicWriteResult> {
  refuseTempName(file.path);
  const name = path.basename(file.path);
  return withPathLock(file.path, () =>
    withHeldFolder(file, { create: false }, async ({ folder }) => {
      const opened = await openHeldEntry(folder, name).catch((error: unknown) => {
        if (isAppError(error) && error.code === 'not_found')
          throw new AppError('not_found', `${file.path} does not exist; nothing was changed.`, { path: file.path });
        throw error;
      });
      let current: Buffer;
      try {
        current = await readOpened(opened, file.path, options.maxBytes ?? defaultMaxBytes);
      } finally {
        await opened.handle.close();
      }
      const existing = {
        mode: Number(opened.stats.mode),
        uid: Number(opened.stats.uid),
        gid: Number(opened.stats.gid),
      };
      const next = await edit(current);
      const bytesWritten = await replaceEntry(folder, name, next, existing, {
        ifUnchanged: { identity: fileIdentityOf(opened.stats) },
      }).catch((error: unknown) => {
        throw fileSystemError(error, 'write', file.path);
      });
      await folder.sync();
      return { path: file.path, bytesWritten, created: false, dirsCreated: [] };
    }),
  );
}
