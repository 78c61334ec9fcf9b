import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { sharedFlockLocks, type FlockLocks, type HeldFlock } from '../hermes/flock-locks';
import { FileLock } from '../locks/file-lock';
import type { Logger } from '../logging/logger';
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

/**
 * One acquisition of the memory locks, as the async context that runs its task sees it. Async
 * context outlives the lock (a promise started inside the task and awaited later still carries
 * it), so `isHeld` turns false on release: a context whose hold is released is stale, and
 * `outside` runs work in the context the acquisition started from.
 */
interface MemoryHold {
  readonly lockPath: string;
  isHeld: boolean;
  readonly outside: <R>(work: () => R) => R;
  readonly parent: MemoryHold | undefined;
}

const holds = new AsyncLocalStorage<MemoryHold>();

/** The innermost hold of `lockPath` in the current context (held or stale), if any. */
function holdOf(lockPath: string, hold = holds.getStore()): MemoryHold | undefined {
  for (let current = hold; current !== undefined; current = current.parent) if (current.lockPath === lockPath) return current;
  return undefined;
}

/**
 * Runs `work` outside every memory lock context: for work that outlives the locked task (a
 * background check, a capture, change listeners), which must take the locks itself if it needs
 * them instead of appearing to hold the ones of the task that started it.
 */
export function runOutsideMemoryLocks<R>(work: () => R): R {
  const hold = holds.getStore();
  if (hold === undefined) return work();
  let outermost = hold;
  while (outermost.parent !== undefined) outermost = outermost.parent;
  return outermost.outside(work);
}

/** Whether the current async context holds the memory locks of `file` (and they are not yet released). */
export function isMemoryLockHeldHere(file: string): boolean {
  return holdOf(memoryLockPath(file))?.isHeld === true;
}

/** How a memory folder's Hermes sidecar is locked: Hermes's own folder creates it when missing, any other folder flocks it when present. */
export function hermesSidecarMode(directory: Pick<ResolvedMemoryDirectory, 'source'>): 'create' | 'if-present' {
  return directory.source === 'hermes' ? 'create' : 'if-present';
}

const notHeld: HeldFlock = { isLocked: false, release: () => Promise.resolve() };

/** Flocks Hermes's sidecar of `file` (see MemoryLockOptions.hermesSidecar), waiting for a Hermes process that holds it. */
async function lockHermesSidecar(file: string, options: MemoryLockOptions): Promise<HeldFlock> {
  const sidecar = hermesSidecarPath(file);
  if ((options.hermesSidecar ?? 'if-present') === 'if-present' && (await lstat(sidecar).catch(() => undefined)) === undefined) return notHeld;
  const { logger } = options;
  return (options.flocks ?? sharedFlockLocks()).acquire(sidecar, {
    timeoutMs: options.timeoutMs ?? defaultMemoryLockTimeoutMs,
    ...(logger === undefined ? {} : { logger }),
    onWaiting: () => logger?.info(`memory: waiting for ${path.basename(sidecar)}, held by Hermes Agent or another program`, { lockPath: sidecar }),
  });
}

/**
 * Runs `task` holding every lock a change of one memory file needs, always in this order: Vigil's
 * own cross-process lock file (created O_EXCL with mode 0600, which never follows a symlink,
 * holding the pid so a dead holder's lock is taken over), then Hermes's flock on `MEMORY.md.lock`
 * (taken by a helper process; never through a symlink; on Windows a logged no-op), so a Hermes
 * process and Vigil never interleave a read-modify-write. Every memory mutation locks here and
 * only here. Re-entrant: a task already holding the locks runs at once; work that merely inherited
 * the async context of a task whose locks are released takes them again (see `MemoryHold`).
 */
export async function withMemoryLock<T>(file: string, task: () => Promise<T>, options: MemoryLockOptions = {}): Promise<T> {
  const lockPath = memoryLockPath(file);
  const hold = holdOf(lockPath);
  if (hold?.isHeld === true) return task();
  // A context left over from a released hold: start again from where that hold was taken, so
  // the file lock's own re-entrancy (which follows the same async context) cannot skip the locks.
  if (hold !== undefined) return hold.outside(() => withMemoryLock(file, task, options));
  await refuseSymlink(lockPath);
  const lock = new FileLock({
    path: lockPath,
    resource: path.basename(file),
    timeoutMs: options.timeoutMs ?? defaultMemoryLockTimeoutMs,
  });
  const outside = AsyncResource.bind(<R>(work: () => R): R => work());
  return lock.withLock(async () => {
    const hermes = await lockHermesSidecar(file, options);
    const held: MemoryHold = { lockPath, isHeld: true, outside, parent: holds.getStore() };
    try {
      return await holds.run(held, task);
    } finally {
      held.isHeld = false;
      await hermes.release();
    }
  }, options.purpose);
}
