import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { type FlockLocks, type HeldFlock, sharedFlockLocks } from '../hermes';
import { FileLock } from '../locks';
import type { Logger } from '../logging';
import type { ResolvedMemoryDirectory } from './memory-config';

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

/** Hermes's sidecar lock of a memory file: `MEMORY.md.lock`, which Hermes opens and flocks around every change and never deletes. */
export function hermesSidecarPath(file: string): string {
  return `${file}.lock`;
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
  /**
   * Hermes's sidecar (`MEMORY.md.lock`): `create` flocks it, creating it (0600) when missing — for
   * Hermes's own memory folder; `if-present` (the default) flocks it when it exists, which covers
   * any folder a Hermes process ever changed memory in (Hermes never deletes it).
   */
  readonly hermesSidecar?: 'create' | 'if-present';
  /** Where waiting for Hermes, and a flock that cannot be taken, are logged. */
  readonly logger?: Logger;
  /** The flock helpers (default: the process's shared pool). */
  readonly flocks?: FlockLocks;
}

/** How a memory folder's Hermes sidecar is locked: Hermes's own folder creates it when missing, any other folder flocks it when present. */
export function hermesSidecarMode(directory: Pick<ResolvedMemoryDirectory, 'source'>): 'create' | 'if-present' {
  return directory.source === 'hermes' ? 'create' : 'if-present';
}

const notHeld: HeldFlock = { isLocked: false, release: () => Promise.resolve() };

/** Flocks Hermes's sidecar of `file` (see MemoryLockOptions.hermesSidecar), waiting for a Hermes process that holds it. */
async function lockHermesSidecar(file: string, options: MemoryLockOptions): Promise<HeldFlock> {
  const sidecar = hermesSidecarPath(file);
  if (
    (options.hermesSidecar ?? 'if-present') === 'if-present' &&
    (await lstat(sidecar).catch(() => undefined)) === undefined
  )
    return notHeld;
  const { logger } = options;
  return (options.flocks ?? sharedFlockLocks()).acquire(sidecar, {
    timeoutMs: options.timeoutMs ?? defaultMemoryLockTimeoutMs,
    logger,
    onWaiting: () =>
      logger?.info(`memory: waiting for ${path.basename(sidecar)}, held by Hermes Agent or another program`, {
        lockPath: sidecar,
      }),
  });
}

/**
 * Runs `task` holding every lock a change of one memory file needs, always in this order: Vigil's
 * own cross-process lock file (created O_EXCL with mode 0600, which never follows a symlink,
 * holding the pid so a dead holder's lock is taken over), then Hermes's flock on `MEMORY.md.lock`
 * (taken by a helper process; never through a symlink; on Windows a logged no-op), so a Hermes
 * process and Vigil never interleave a read-modify-write. Every memory mutation locks here and
 * only here. Re-entrant while held: a task already holding the locks runs at once; work it started
 * that runs after their release takes them again (see `FileLock.isHeldHere`).
 */
export async function withMemoryLock<T>(
  file: string,
  task: () => Promise<T>,
  options: MemoryLockOptions = {},
): Promise<T> {
  const lockPath = memoryLockPath(file);
  const lock = new FileLock({
    path: lockPath,
    resource: path.basename(file),
    timeoutMs: options.timeoutMs ?? defaultMemoryLockTimeoutMs,
  });
  if (lock.isHeldHere()) return task();
  await refuseSymlink(lockPath);
  return lock.withLock(async () => {
    const hermes = await lockHermesSidecar(file, options);
    try {
      return await task();
    } finally {
      await hermes.release();
    }
  }, options.purpose);
}
