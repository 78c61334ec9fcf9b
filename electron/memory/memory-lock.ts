import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { FileLock } from '../locks/file-lock';

/** How long a mutation waits for another writer of the same memory file before failing with `busy`. */
export const defaultMemoryLockTimeoutMs = 10_000;

/**
 * Vigil's own lock file for a memory file: `.MEMORY.md.vigil-lock` beside it. Hermes keeps a
 * persistent `MEMORY.md.lock` that it flocks; Vigil must never create, delete or replace that one,
 * hence a different name.
 */
export function memoryLockPath(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.vigil-lock`);
}

/** Refuses a lock path that is a symbolic link: a lock file is never followed through one. */
async function refuseSymlink(lockPath: string): Promise<void> {
  const stats = await lstat(lockPath).catch(() => undefined);
  if (stats?.isSymbolicLink() === true) {
    throw new AppError(
      'conflict',
      `${lockPath} is a symbolic link; Vigil never follows its lock files through one, so nothing was written. Delete the link (it is not Vigil's) and retry.`,
      { lockPath },
    );
  }
}

/** Options of one memory lock acquisition. */
export interface MemoryLockOptions {
  readonly timeoutMs?: number;
  /** What the holder is doing, shown to a writer that has to wait ("memory: add"). */
  readonly purpose?: string;
}

/**
 * Runs `task` holding every lock a change of one memory file needs: today Vigil's own
 * cross-process lock file (created O_EXCL with mode 0600, which never follows a symlink, holding
 * the pid so a dead holder's lock is taken over). Every memory mutation acquires its locks here
 * and only here, so taking Hermes's flock on `MEMORY.md.lock` as well (issue #9) is one change.
 */
export async function withMemoryLock<T>(file: string, task: () => Promise<T>, options: MemoryLockOptions = {}): Promise<T> {
  const lockPath = memoryLockPath(file);
  await refuseSymlink(lockPath);
  const lock = new FileLock({
    path: lockPath,
    resource: path.basename(file),
    timeoutMs: options.timeoutMs ?? defaultMemoryLockTimeoutMs,
  });
  return lock.withLock(task, options.purpose);
}
