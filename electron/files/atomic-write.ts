import type { Stats } from 'node:fs';
import { link, lstat, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AppError, isAppError } from '../../shared/errors';
import { canonicalPath } from './canonical-path';
import { ensureDirectories } from './ensure-directories';
import { errnoCode, fileSystemError } from './file-system-error';
import { isSameIdentity, readFileIdentity, type FileIdentity } from './file-identity';
import type { HeldDirectory } from './held-directory';
import { KeyedLock } from './keyed-lock';
import { renameWithRetry } from './rename-with-retry';
import { sweepStaleTempsIn } from './sweep-stale-temps';
import { syncDirectory } from './sync-directory';
import { trackTempFile } from './temp-registry';
import { isVigilTempFile, vigilTempName } from './vigil-temp-name';
import { writeTempFile, type AtomicContent } from './write-temp-file';
import { pathKey } from '../lib/path-rules';

export type { AtomicContent } from './write-temp-file';
export { isVigilTempFile } from './vigil-temp-name';

/** Options of one atomic write. */
export interface AtomicWriteOptions {
  /** Explicit permission bits; otherwise an existing file keeps its mode and a new file gets the umask default. */
  readonly mode?: number;
  /**
   * Refuse (`conflict`) unless the target is already the canonical path, with no symlink anywhere
   * in it when the write starts. (The agent tools go further: they write through the folder their
   * prepare anchored, `writeAnchoredFile`, so nothing swapped in later redirects them either.)
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

/** Runs `task` while holding the in-process write lock of an already canonical path. */
export function withPathLock<T>(canonicalTarget: string, task: () => Promise<T>): Promise<T> {
  return pathLock.run(pathKey(canonicalTarget), task);
}

/** Checks a mode option: permission bits only. */
export function checkMode(mode: number | undefined): void {
  if (mode === undefined) return;
  if (!Number.isInteger(mode) || mode < 0 || mode > 0o7777) {
    throw new AppError(
      'invalid_request',
      `The mode ${String(mode)} is not a permission mode (0 to 0o7777, such as 0o644); nothing was written.`,
      { mode },
    );
  }
}

/** Resolves a write target to the file that will really be written, enforcing `requireCanonical`. */
export async function resolveWriteTarget(target: string, options: AtomicWriteOptions = {}): Promise<string> {
  if (target.includes('\0'))
    throw new AppError('invalid_request', 'The path contains a NUL byte; nothing was written.', { path: target });
  const absolute = path.resolve(target);
  const resolved = await canonicalPath(absolute);
  if (isVigilTempFile(path.basename(resolved))) {
    throw new AppError(
      'invalid_request',
      `${resolved} has the form of a Vigil temp file name, which is reserved (such files are swept); choose another name. Nothing was written.`,
      {
        path: resolved,
      },
    );
  }
  if (options.requireCanonical === true && pathKey(resolved) !== pathKey(absolute)) {
    throw new AppError(
      'conflict',
      `${absolute} now leads through a symbolic link to ${resolved} (it changed after the path was checked); nothing was written.`,
      { path: absolute, resolved },
    );
  }
  return resolved;
}

/** What the replacement keeps of the file it replaces. */
export type ExistingFile = Pick<Stats, 'mode' | 'uid' | 'gid'>;

/**
 * The existing target's stats, or undefined; refuses directories and anything that is not a
 * regular file. `display` names it in errors when `target` is a descriptor-relative path.
 */
export async function inspectTarget(target: string, display = target): Promise<Stats | undefined> {
  let stats: Stats;
  try {
    stats = await lstat(target);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw fileSystemError(error, 'inspect', display);
  }
  if (stats.isDirectory()) {
    throw new AppError('wrong_kind', `${display} is a directory; nothing was written. Give the path of a file.`, {
      path: display,
    });
  }
  if (stats.isSymbolicLink()) {
    throw new AppError(
      'conflict',
      `${display} became a symbolic link while it was being written; nothing was written. Try again.`,
      { path: display },
    );
  }
  if (!stats.isFile()) {
    throw new AppError(
      'wrong_kind',
      `${display} is not a regular file (a FIFO, socket or device); nothing was written.`,
      { path: display },
    );
  }
  return stats;
}

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

/** The folder a write happens in: a held folder, or a plain path that the kernel follows as it is. */
export type WriteFolder = Pick<HeldDirectory, 'path' | 'access' | 'isAnchored' | 'entry' | 'verify'>;

/** A folder named by its path alone (symlinks in it followed, nothing verified). */
function plainFolder(directory: string): WriteFolder {
  return {
    path: directory,
    access: directory,
    isAnchored: false,
    entry: (name) => path.join(directory, name),
    verify: () => Promise.resolve(),
  };
}

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

/** Options of a staged write (see `stageWrite`). */
export interface StageOptions extends AtomicWriteOptions {
  /** Whether stale temp files are swept from the folder first (default: yes). */
  readonly sweep?: boolean;
  /**
   * What the caller found at the target just before, by its own lstat: a regular file (its mode
   * and owner, to keep) or nothing. The target is then not inspected again; pair it with
   * `ifUnchanged`, which refuses the rename if the target changed since.
   */
  readonly inspected?: { readonly existing: ExistingFile | undefined };
}

/**
 * Writes an already resolved target while its lock is held, without fsyncing its directory: the
 * caller does that (at once for one write, once per directory for a batch).
 */
export async function stageWrite(
  target: string,
  content: AtomicContent,
  options: StageOptions = {},
): Promise<StagedWrite> {
  checkMode(options.mode);
  const existing = options.inspected === undefined ? await inspectTarget(target) : options.inspected.existing;
  const directory = path.dirname(target);
  const dirsCreated = existing === undefined ? await ensureDirectories(directory) : [];
  try {
    const bytesWritten = await replaceEntry(plainFolder(directory), path.basename(target), content, existing, options);
    const directoriesToSync = [...new Set([directory, ...dirsCreated.map((created) => path.dirname(created))])];
    return { result: { path: target, bytesWritten, created: existing === undefined, dirsCreated }, directoriesToSync };
  } catch (error) {
    await removeCreated(dirsCreated);
    throw fileSystemError(error, 'write', target);
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
export async function writeFileAtomic(
  target: string,
  content: AtomicContent,
  options: AtomicWriteOptions = {},
): Promise<AtomicWriteResult> {
  const resolved = await resolveWriteTarget(target, options);
  const staged = await withPathLock(resolved, () => stageWrite(resolved, content, options));
  await syncDirectories(staged.directoriesToSync);
  return staged.result;
}
