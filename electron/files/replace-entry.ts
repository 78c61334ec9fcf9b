import type { Stats } from 'node:fs';
import { link, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AppError, isAppError } from '../../shared/errors';
import { errnoCode } from './file-system-error';
import { isSameIdentity, readFileIdentity } from './file-identity';
import type { HeldDirectory } from './held-directory';
import { renameWithRetry } from './rename-with-retry';
import { sweepStaleTempsIn } from './sweep-stale-temps';
import { trackTempFile } from './temp-registry';
import { vigilTempName } from './vigil-temp-name';
import { writeTempFile, type AtomicContent } from './write-temp-file';
import type { AtomicWriteOptions } from './atomic-write-options';

/** What the replacement keeps of the file it replaces. */
export type ExistingFile = Pick<Stats, 'mode' | 'uid' | 'gid'>;

/** The owner to restore on the replacement, when it differs from who this process creates files as. */
function ownerToKeep(existing: ExistingFile): { uid: number; gid: number } | undefined {
  if (process.getuid === undefined || process.getgid === undefined) return undefined;
  if (existing.uid === process.getuid() && existing.gid === process.getgid()) return undefined;
  return { uid: existing.uid, gid: existing.gid };
}

/** Errors of `link` that leave nothing to keep: no file there, or a file system without hard links (then the write goes on as it would without). */
const nothingKept = new Set(['ENOENT', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

/** Hard-links the file at `target` (if any) to `keep`. */
async function linkReplaced(target: string, keep: string): Promise<void> {
  try {
    await link(target, keep);
  } catch (error) {
    if (!nothingKept.has(errnoCode(error) ?? '')) throw error;
  }
}

/** The folder a write happens in: a held folder, or a plain path that the kernel follows as it is. */
export type WriteFolder = Pick<HeldDirectory, 'path' | 'access' | 'isAnchored' | 'entry' | 'verify'>;

/** After the rename the folder was found moved: a file this write created is taken back out. */
async function undoMisplaced(
  folder: WriteFolder,
  name: string,
  existing: ExistingFile | undefined,
  error: unknown,
): Promise<never> {
  if (existing !== undefined) {
    throw new AppError(
      'conflict',
      `${path.join(folder.path, name)} was replaced, but its folder was moved or replaced during the write, so the new content may now be elsewhere. Check the folder and try again.`,
      {
        path: path.join(folder.path, name),
      },
    );
  }
  await unlink(folder.entry(name)).catch(() => undefined);
  throw error;
}

/**
 * The heart of every atomic write: the content goes to a fresh temp file in `folder`, is fsynced,
 * checked (`ifUnchanged`, the folder still the one held) and renamed over `name`; the folder is
 * checked again after the rename. Resolves to the bytes written; the temp file never stays behind.
 */
export async function replaceEntry(
  folder: WriteFolder,
  name: string,
  content: AtomicContent,
  existing: ExistingFile | undefined,
  options: AtomicWriteOptions & { readonly sweep?: boolean } = {},
): Promise<number> {
  const tempName = vigilTempName(name);
  const untrack = trackTempFile(path.join(folder.path, tempName));
  const sweeping = options.sweep === false ? Promise.resolve([]) : sweepStaleTempsIn(folder.path, folder.access);
  try {
    // A folder reached by path is checked before the temp file is created in it, too (one held by descriptor needs no check).
    if (!folder.isAnchored) await folder.verify();
    const bytesWritten = await writeTempFile(folder.entry(tempName), content, {
      mode: options.mode ?? (existing === undefined ? undefined : existing.mode & 0o7777),
      owner: existing === undefined ? undefined : ownerToKeep(existing),
    });
    try {
      await folder.verify();
      const target = path.join(folder.path, name);
      if (
        options.ifUnchanged !== undefined &&
        !isSameIdentity(await readFileIdentity(folder.entry(name), target), options.ifUnchanged.identity)
      ) {
        throw new AppError(
          'conflict',
          `${target} was changed by another program while Vigil was writing it; nothing was written. Read it again and retry.`,
          { path: target },
        );
      }
      await options.afterCheck?.();
      if (options.keepReplacedAt !== undefined) await linkReplaced(folder.entry(name), options.keepReplacedAt);
      await renameWithRetry(folder.entry(tempName), folder.entry(name));
    } catch (error) {
      await unlink(folder.entry(tempName)).catch(() => undefined);
      // A rename by path that failed because the folder moved away says so, not "it does not exist".
      if (!isAppError(error)) await folder.verify();
      throw error;
    }
    await folder.verify().catch((error: unknown) => undoMisplaced(folder, name, existing, error));
    return bytesWritten;
  } finally {
    await sweeping;
    untrack();
  }
}
