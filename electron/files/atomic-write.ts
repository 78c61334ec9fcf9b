import type { Stats } from 'node:fs';
import { lstat, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { canonicalPath } from './canonical-path';
import { ensureDirectories } from './ensure-directories';
import { errnoCode, fileSystemError } from './file-system-error';
import { KeyedLock } from './keyed-lock';
import { syncDirectory } from './sync-directory';
import { isVigilTempFile } from './vigil-temp-name';
import type { AtomicContent } from './write-temp-file';
import { pathKey } from '../lib';
import type { AtomicWriteOptions, AtomicWriteResult, StagedWrite } from './atomic-write-options';
import { replaceEntry, type ExistingFile, type WriteFolder } from './replace-entry';

export type { AtomicWriteOptions, AtomicWriteResult, StagedWrite } from './atomic-write-options';

export type { AtomicContent } from './write-temp-file';
export { isVigilTempFile } from './vigil-temp-name';

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

/**
 * Fsyncs directories whose entries changed, reporting a failure as an `io_error`, or `wrong_kind` when
 * something else took a folder's place. They are real paths (resolved by the write), so a symbolic link
 * at one was put there since, and is refused.
 */
export async function syncDirectories(directories: readonly string[]): Promise<void> {
  await Promise.all(
    directories.map(async (directory) => {
      try {
        await syncDirectory(directory, 'refuse');
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
