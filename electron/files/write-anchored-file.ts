import path from 'node:path';
import { AppError } from '../../shared/errors';
import {
  checkMode,
  inspectTarget,
  withPathLock,
  type AtomicContent,
  type AtomicWriteOptions,
  type AtomicWriteResult,
} from './atomic-write';
import { replaceEntry } from './replace-entry';
import { fileSystemError } from './file-system-error';
import { withHeldFolder, type AnchoredFile } from './folder-anchor';
import { isVigilTempFile } from './vigil-temp-name';

/** Refuses a name of the form Vigil's temp files use (they are swept). */
export function refuseTempName(file: string): void {
  if (isVigilTempFile(path.basename(file))) {
    throw new AppError(
      'invalid_request',
      `${file} has the form of a Vigil temp file name, which is reserved (such files are swept); choose another name. Nothing was written.`,
      {
        path: file,
      },
    );
  }
}

/**
 * Writes a file atomically into exactly the folder that was anchored when its path was checked:
 * the folder is held (missing folders created inside it, never through a symlink), the temp file
 * is created and renamed there, and the folder is checked before and after the rename. A folder
 * swapped, moved or replaced meanwhile refuses the write (`conflict`) and leaves nothing behind.
 */
export async function writeAnchoredFile(
  file: AnchoredFile,
  content: AtomicContent,
  options: Pick<AtomicWriteOptions, 'mode' | 'afterCheck'> = {},
): Promise<AtomicWriteResult> {
  checkMode(options.mode);
  refuseTempName(file.path);
  const name = path.basename(file.path);
  return withPathLock(file.path, () =>
    withHeldFolder(file, { create: true }, async ({ folder, created, chain }) => {
      const existing = await inspectTarget(folder.entry(name), file.path);
      const bytesWritten = await replaceEntry(folder, name, content, existing, options).catch((error: unknown) => {
        throw fileSystemError(error, 'write', file.path);
      });
      await Promise.all((created.length > 0 ? chain : [folder]).map((held) => held.sync()));
      return { path: file.path, bytesWritten, created: existing === undefined, dirsCreated: created };
    }),
  );
}
