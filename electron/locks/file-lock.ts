import { AsyncLocalStorage } from 'node:async_hooks';
import { link, mkdir, open, readFile, rename, stat, unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../shared/errors';
import { newLockHolder, parseLockHolder, staleReason, type LockHolder } from './lock-holder';

/** Options of a cross-process lock file. */
export interface FileLockOptions {
  /** The lock file; its folder is created when missing. */
  readonly path: string;
  /** What the lock protects, for error messages ("the checkpoint store"). */
  readonly resource: string;
  /** How long to wait for a live holder before failing with `busy` (default 60 s). */
  readonly timeoutMs?: number;
  /** A lock whose file was not refreshed for this long is abandoned even if its pid exists (default 20 s). */
  readonly staleMs?: number;
  /** How often a holder refreshes the file (default 2 s). */
  readonly heartbeatMs?: number;
  /**
   * Called (while holding the lock) when it was taken over from a holder that died: the place to
   * repair what that holder may have left half done.
   */
  readonly onTakeover?: (abandoned: LockHolder | undefined, reason: string) => Promise<void>;
}

/** Which lock files the current async context holds, so that a holder may re-enter its own lock. */
const heldLocks = new AsyncLocalStorage<ReadonlySet<string>>();

/** The in-process queue of each lock file: every FileLock on one path in this thread shares it. */
const queues = new Map<string, { tail: Promise<void>; waiting: number }>();

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * One writer at a time across threads and processes: an in-process queue in front of a lock file
 * created with O_EXCL that records the holder's pid. A holder that died is detected (its pid is
 * gone, or it stopped refreshing the file) and its lock is taken over safely: the abandoned file is
 * moved aside atomically, checked to still be the one judged abandoned, and only then replaced.
 * Re-entrant: code already running under the lock (in the same async context) runs at once.
 */
export class FileLock {
  readonly #options: Required<Omit<FileLockOptions, 'onTakeover'>> & Pick<FileLockOptions, 'onTakeover'>;
  readonly #key: string;
  #current: LockHolder | undefined;

  constructor(options: FileLockOptions) {
    this.#options = { timeoutMs: 60_000, staleMs: 20_000, heartbeatMs: 2_000, ...options, path: path.resolve(options.path) };
    this.#key = this.#options.path;
  }

  /** The lock file. */
  get path(): string {
    return this.#options.path;
  }

  /** Whether the calling async context holds this lock. */
  isHeldHere(): boolean {
    return heldLocks.getStore()?.has(this.#key) === true;
  }

  /** Runs `task` holding the lock; waits in line behind other holders in this process and elsewhere. */
  async withLock<T>(task: () => Promise<T>, purpose?: string): Promise<T> {
    if (this.isHeldHere()) return task();
    const queue = queues.get(this.#key) ?? { tail: Promise.resolve(), waiting: 0 };
    queues.set(this.#key, queue);
    const previous = queue.tail;
    let release = (): void => undefined;
    queue.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    queue.waiting += 1;
    await previous;
    try {
      const holder = await this.#acquire(purpose);
      const heartbeat = setInterval(() => {
        const now = new Date();
        void utimes(this.#options.path, now, now).catch(() => undefined);
      }, this.#options.heartbeatMs);
      heartbeat.unref();
      try {
        return await heldLocks.run(this.#withThisLock(), task);
      } finally {
        clearInterval(heartbeat);
        await this.#release(holder);
      }
    } finally {
      queue.waiting -= 1;
      if (queue.waiting === 0) queues.delete(this.#key);
      release();
    }
  }

  /**
   * Fails with `conflict` unless this process still holds the lock file. Call it right before an
   * irreversible step (moving a ref) to catch the rare case of a lock taken over from under us.
   */
  async assertHeld(): Promise<void> {
    const holder = this.#current;
    const onDisk = await readFile(this.#options.path, 'utf8').then(parseLockHolder, () => undefined);
    if (holder === undefined || onDisk?.token !== holder.token) {
      throw new AppError('conflict', `Lost the lock on ${this.#options.resource} (${this.#options.path}) to another process; nothing was changed. Try again.`);
    }
  }

  async #acquire(purpose: string | undefined): Promise<LockHolder> {
    const lockPath = this.#options.path;
    const deadline = Date.now() + this.#options.timeoutMs;
    let delay = 2;
    for (;;) {
      const holder = newLockHolder(purpose);
      const created = await this.#tryCreate(holder);
      if (created) {
        this.#current = holder;
        return holder;
      }
      const observed = await this.#observe();
      if (observed === undefined) continue; // released between our attempt and our look: try again
      const reason = staleReason(observed.holder, observed.ageMs, {
        staleMs: this.#options.staleMs,
        garbageMs: 1_000,
      });
      if (reason !== undefined) {
        if (await this.#takeOver(observed.raw)) {
          const holderNow = await this.#acquireAfterTakeover(purpose, observed.holder, reason);
          if (holderNow !== undefined) return holderNow;
        }
        continue;
      }
      if (Date.now() > deadline) {
        const by = observed.holder;
        const who = by === undefined ? 'another process' : `process ${by.pid} on ${by.hostname}${by.purpose === undefined ? '' : ` (${by.purpose})`} since ${by.acquiredAt}`;
        throw new AppError('busy', `${this.#options.resource} is locked by ${who}. Wait for it to finish; if no Vigil process is running, delete ${lockPath}.`, {
          lockPath,
          holder: by,
        });
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 100);
    }
  }

  async #acquireAfterTakeover(purpose: string | undefined, abandoned: LockHolder | undefined, reason: string): Promise<LockHolder | undefined> {
    const holder = newLockHolder(purpose);
    if (!(await this.#tryCreate(holder))) return undefined;
    this.#current = holder;
    if (this.#options.onTakeover !== undefined) {
      try {
        await heldLocks.run(this.#withThisLock(), () => this.#options.onTakeover?.(abandoned, reason) ?? Promise.resolve());
      } catch (error) {
        await this.#release(holder);
        throw error;
      }
    }
    return holder;
  }

  /** The set of held lock files of the current context, plus this one. */
  #withThisLock(): ReadonlySet<string> {
    return new Set(heldLocks.getStore() ?? []).add(this.#key);
  }

  /** Creates the lock file with O_EXCL; false when it already exists. */
  async #tryCreate(holder: LockHolder): Promise<boolean> {
    const lockPath = this.#options.path;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const handle = await open(lockPath, 'wx', 0o600);
        try {
          await handle.writeFile(JSON.stringify(holder));
        } finally {
          await handle.close();
        }
        return true;
      } catch (error) {
        if (errno(error) === 'EEXIST') return false;
        if (errno(error) === 'ENOENT' && attempt === 0) {
          await mkdir(path.dirname(lockPath), { recursive: true });
          continue;
        }
        throw new AppError('io_error', `Could not create the lock file ${lockPath} for ${this.#options.resource}: ${(error as Error).message}`, {
          lockPath,
        });
      }
    }
  }

  /** The current lock file's content and age, or undefined when there is none. */
  async #observe(): Promise<{ raw: string; holder: LockHolder | undefined; ageMs: number } | undefined> {
    try {
      const [raw, info] = await Promise.all([readFile(this.#options.path, 'utf8'), stat(this.#options.path)]);
      return { raw, holder: parseLockHolder(raw), ageMs: Date.now() - info.mtimeMs };
    } catch (error) {
      if (errno(error) === 'ENOENT') return undefined;
      throw error;
    }
  }

  /**
   * Moves an abandoned lock file aside, but only the exact one that was judged abandoned: if a
   * live holder replaced it in the meantime, its file is put back (with `link`, which never
   * overwrites) and false is returned.
   */
  async #takeOver(abandonedRaw: string): Promise<boolean> {
    const lockPath = this.#options.path;
    const aside = `${lockPath}.abandoned-${process.pid}-${Math.random().toString(36).slice(2)}`;
    try {
      await rename(lockPath, aside);
    } catch (error) {
      if (errno(error) === 'ENOENT') return false;
      throw error;
    }
    const moved = await readFile(aside, 'utf8').catch(() => '');
    if (moved === abandonedRaw) {
      await unlink(aside).catch(() => undefined);
      return true;
    }
    await link(aside, lockPath).catch(() => undefined);
    await unlink(aside).catch(() => undefined);
    return false;
  }

  async #release(holder: LockHolder): Promise<void> {
    this.#current = undefined;
    const lockPath = this.#options.path;
    // Remove the file only if it is still ours (it may have been taken over after a long stall).
    const onDisk = await readFile(lockPath, 'utf8').then(parseLockHolder, () => undefined);
    if (onDisk?.token === holder.token) await unlink(lockPath).catch(() => undefined);
  }
}
