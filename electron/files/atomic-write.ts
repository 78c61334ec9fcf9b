import type { Stats } from 'node:fs';
import { link, lstat, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { canonicalPath } from './canonical-path';
import { ensureDirectories } from './ensure-directories';
import { errnoCode, fileSystemError } from './file-system-error';
import { isSameIdentity, readFileIdentity, type FileIdentity } from './file-identity';
import { KeyedLock } from './keyed-lock';
import { renameWithRetry } from './rename-with-retry';
import { sweepStaleTemps } from './sweep-stale-temps';
import { syncDirectory } from './sync-directory';
import { trackTempFile } from './temp-registry';
import { isVigilTempFile, vigilTempName } from './vigil-temp-name';
import { writeTempFile, type AtomicContent } from './write-temp-file';

export type { AtomicContent } from './write-temp-file';
export { isVigilTempFile } from './vigil-temp-name';

/** Options of one atomic write. */
export interface AtomicWriteOptions {
  /** Explicit permission bits; otherwise an existing file keeps its mode and a new file gets the umask default. */
  readonly mode?: number;
  /**
   * Refuse (`conflict`) unless the target is already the canonical path, with no symlink anywhere
   * in it. The agent tools pass the path confinement approved, so a symlink swapped in afterwards
   * cannot redirect the write outside the workspace.
   */
  readonly requireCanonical?: boolean;
  /** Refuse (`conflict`) unless the file is still this version (undefined identity: still absent) right before the rename. */
  readonly ifUnchanged?: { readonly identity: FileIdentity | undefined };
  /**
   * Hard-link whatever is at the target to this path (beside it) right before the rename, after
   * the `ifUnchanged` check: a version another program renamed into place between the check and
   * the rename then survives, for the caller to compare with what it read. The link is the
   * caller's: it removes it, whether the write succeeded or failed.
   */
  readonly keepReplacedAt?: string;
  /** Runs between the `ifUnchanged` check and the rename: a seam for tests standing in for another program at that moment. */
  readonly afterCheck?: () => Promise<void>;
}

/** What an atomic write did. */
export interface AtomicWriteResult {
  /** The file actually written (a symlink's resolved target). */
  readonly path: string;
  readonly bytesWritten: number;
  /** The file did not exist before. */
  readonly created: boolean;
  /** The directories actually created, outermost first. */
  readonly dirsCreated: readonly string[];
}

/** A finished write whose directory entries may still need an fsync (the batch form defers them). */
export interface StagedWrite {
  readonly result: AtomicWriteResult;
  /** Directories whose entries changed: the file's own, and the parent of each created directory. */
  readonly directoriesToSync: readonly string[];
}

/** Serializes writes to the same path inside this process; different paths run in parallel. */
const pathLock = new KeyedLock();

/** The lock key of a path: case-folded where the usual file systems are case-insensitive. */
function lockKey(target: string): string {
  return process.platform === 'win32' || process.platform === 'darwin' ? target.toLowerCase() : target;
}

/** Runs `task` while holding the in-process write lock of an already canonical path. */
export function withPathLock<T>(canonicalTarget: string, task: () => Promise<T>): Promise<T> {
  return pathLock.run(lockKey(canonicalTarget), task);
}

/** Checks a mode option: permission bits only. */
function checkMode(mode: number | undefined): void {
  if (mode === undefined) return;
  if (!Number.isInteger(mode) || mode < 0 || mode > 0o7777) {
    throw new AppError('invalid_request', `The mode ${String(mode)} is not a permission mode (0 to 0o7777, such as 0o644); nothing was written.`, { mode });
  }
}

/** Resolves a write target to the file that will really be written, enforcing `requireCanonical`. */
export async function resolveWriteTarget(target: string, options: AtomicWriteOptions = {}): Promise<string> {
  if (target.includes('\0')) throw new AppError('invalid_request', 'The path contains a NUL byte; nothing was written.', { path: target });
  const absolute = path.resolve(target);
  const resolved = await canonicalPath(absolute);
  if (isVigilTempFile(path.basename(resolved))) {
    throw new AppError('invalid_request', `${resolved} has the form of a Vigil temp file name, which is reserved (such files are swept); choose another name. Nothing was written.`, {
      path: resolved,
    });
  }
  if (options.requireCanonical === true && lockKey(resolved) !== lockKey(absolute)) {
    throw new AppError(
      'conflict',
      `${absolute} now leads through a symbolic link to ${resolved} (it changed after the path was checked); nothing was written.`,
      { path: absolute, resolved },
    );
  }
  return resolved;
}

/** The existing target's stats, or undefined; refuses directories and anything that is not a regular file. */
async function inspectTarget(target: string): Promise<Stats | undefined> {
  let stats: Stats;
  try {
    stats = await lstat(target);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw fileSystemError(error, 'inspect', target);
  }
  if (stats.isDirectory()) {
    throw new AppError('wrong_kind', `${target} is a directory; nothing was written. Give the path of a file.`, { path: target });
  }
  if (stats.isSymbolicLink()) {
    throw new AppError('conflict', `${target} became a symbolic link while it was being written; nothing was written. Try again.`, { path: target });
  }
  if (!stats.isFile()) {
    throw new AppError('wrong_kind', `${target} is not a regular file (a FIFO, socket or device); nothing was written.`, { path: target });
  }
  return stats;
}

/** The owner to restore on the replacement, when it differs from who this process creates files as. */
function ownerToKeep(stats: Stats): { uid: number; gid: number } | undefined {
  if (process.getuid === undefined || process.getgid === undefined) return undefined;
  if (stats.uid === process.getuid() && stats.gid === process.getgid()) return undefined;
  return { uid: stats.uid, gid: stats.gid };
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

/** Removes directories this write created (innermost first) when it failed; a non-empty one stays. */
async function removeCreated(directories: readonly string[]): Promise<void> {
  for (const directory of [...directories].reverse()) {
    try {
      await rmdir(directory);
    } catch {
      return;
    }
  }
}

/**
 * Writes an already resolved target while its lock is held, without fsyncing its directory: the
 * caller does that (at once for one write, once per directory for a batch).
 */
export async function stageWrite(
  target: string,
  content: AtomicContent,
  options: AtomicWriteOptions & { readonly sweep?: boolean } = {},
): Promise<StagedWrite> {
  checkMode(options.mode);
  const existing = await inspectTarget(target);
  const directory = path.dirname(target);
  const dirsCreated = existing === undefined ? await ensureDirectories(directory) : [];
  const tempPath = path.join(directory, vigilTempName(path.basename(target)));
  const untrack = trackTempFile(tempPath);
  const sweeping = options.sweep === false ? Promise.resolve([]) : sweepStaleTemps(directory);
  try {
    const existingMode = existing === undefined ? undefined : existing.mode & 0o7777;
    const bytesWritten = await writeTempFile(tempPath, content, {
      mode: options.mode ?? existingMode,
      owner: existing === undefined ? undefined : ownerToKeep(existing),
    });
    try {
      if (options.ifUnchanged !== undefined && !isSameIdentity(await readFileIdentity(target), options.ifUnchanged.identity)) {
        throw new AppError('conflict', `${target} was changed by another program while Vigil was writing it; nothing was written. Read it again and retry.`, { path: target });
      }
      await options.afterCheck?.();
      if (options.keepReplacedAt !== undefined) await linkReplaced(target, options.keepReplacedAt);
      await renameWithRetry(tempPath, target);
    } catch (error) {
      await unlink(tempPath).catch(() => undefined);
      throw error;
    }
    const directoriesToSync = [...new Set([directory, ...dirsCreated.map((created) => path.dirname(created))])];
    return { result: { path: target, bytesWritten, created: existing === undefined, dirsCreated }, directoriesToSync };
  } catch (error) {
    await removeCreated(dirsCreated);
    throw fileSystemError(error, 'write', target);
  } finally {
    await sweeping;
    untrack();
  }
}

/** Fsyncs directories whose entries changed, reporting a failure as an `io_error`. */
export async function syncDirectories(directories: readonly string[]): Promise<void> {
  await Promise.all(
    directories.map(async (directory) => {
      try {
        await syncDirectory(directory);
      } catch (error) {
        throw fileSystemError(error, 'flush the directory', directory);
      }
    }),
  );
}

/**
 * Writes a file atomically: the content goes to a hidden temp file beside the target, which is
 * fsynced, renamed over the target, and the directory fsynced. A reader (or a crash) sees the whole
 * old content or the whole new content, never anything in between; a failure leaves the original
 * byte-for-byte intact and no temp file behind. Symlinks are written through, missing parent
 * directories created, stale temp files of dead writers swept, and writes to the same path in
 * this process serialized.
 */
export async function writeFileAtomic(target: string, content: AtomicContent, options: AtomicWriteOptions = {}): Promise<AtomicWriteResult> {
  const resolved = await resolveWriteTarget(target, options);
  const staged = await withPathLock(resolved, () => stageWrite(resolved, content, options));
  await syncDirectories(staged.directoriesToSync);
  return staged.result;
}
