import { unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../shared/errors';
import { fileSystemError, readSmallFile } from '../files';
import { heldLocks, type Hold } from './held-locks';
import { createExclusive, observeFile, sweepLockLitter, type ObservedFile } from './lock-file-ops';
import {
  describeHolder,
  isHolderStopped,
  newLockHolder,
  parseLockHolder,
  staleReason,
  type LockHolder,
} from './lock-holder';
import { replaceAbandoned } from './lock-takeover';
import { ownStartTime } from '../lib';

export { runOutsideFileLocks } from './held-locks';

/** Options of a cross-process lock file. */
export interface FileLockOptions {
  /** The lock file; its folder is created when missing. */
  readonly path: string;
  /** What the lock protects, for error messages ("the checkpoint store"). */
  readonly resource: string;
  /** How long to wait for a live holder before failing with `busy` (default 60 s). */
  readonly timeoutMs?: number;
  /** A lock of a holder on another host (a shared folder) whose file was not refreshed for this long is abandoned (default 20 s). */
  readonly staleMs?: number;
  /** How often a holder refreshes the file (default 2 s). */
  readonly heartbeatMs?: number;
  /**
   * Called (while holding the lock) when it was taken over from a holder that died: the place to
   * repair what that holder may have left half done.
   */
  readonly onTakeover?: (abandoned: LockHolder | undefined, reason: string) => Promise<void>;
  /** Called (still holding the lock) as each hold of this FileLock ends: state valid only within one hold is dropped there. */
  readonly onHoldEnding?: () => void;
}

/** What `tryWithLock` did: ran the task holding the lock, or found the lock taken and ran nothing. */
export type TryLockOutcome<T> = { readonly kind: 'held'; readonly value: T } | { readonly kind: 'busy' };

/**
 * How long a holder must be seen stopped (Ctrl+Z, SIGSTOP) before a contender stops waiting for
 * it and says so: long enough not to race a `kill -CONT` under way.
 */
const stoppedHolderGraceMs = 1_000;

/** The in-process queue of each lock file: every FileLock on one path in this thread shares it. */
const queues = new Map<string, { tail: Promise<void>; waiting: number }>();

/**
 * One writer at a time across threads and processes: an in-process queue in front of a lock file
 * created exclusively that records the holder's pid (and process start time). A holder that died
 * is detected (its pid is gone or names another process; on another host, it stopped refreshing
 * the file) and its lock is taken over by exactly one contender, without the file ever going
 * missing (see `#replaceAbandoned`). Where the holder's start time can be read (Linux), a live
 * holder on this host is never taken over, however long it is stopped; elsewhere one that stopped
 * refreshing the file counts as abandoned, so a reused pid cannot keep it forever. Re-entrant: code already running under the lock (in the same async context) runs
 * at once, while the lock is held; work it started that runs after the release takes the lock anew.
 */
export class FileLock {
  readonly #options: Required<Omit<FileLockOptions, 'onTakeover' | 'onHoldEnding'>> &
    Pick<FileLockOptions, 'onTakeover' | 'onHoldEnding'>;
  readonly #key: string;
  #current: LockHolder | undefined;

  constructor(options: FileLockOptions) {
    this.#options = {
      timeoutMs: 60_000,
      staleMs: 20_000,
      heartbeatMs: 2_000,
      ...options,
      path: path.resolve(options.path),
    };
    this.#key = this.#options.path;
  }

  /** The lock file. */
  get path(): string {
    return this.#options.path;
  }

  /** Whether the calling async context holds this lock (an acquisition it runs under is not yet released). */
  isHeldHere(): boolean {
    return heldLocks.getStore()?.get(this.#key)?.isHeld === true;
  }

  /**
   * How many acquisitions in this thread wait in line for this lock now (not counting the one
   * holding it): long background work under the lock asks it to know when to give way.
   */
  waitingInLine(): number {
    const waiting = queues.get(this.#key)?.waiting ?? 0;
    return Math.max(0, waiting - 1);
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
    const hold: Hold = { isHeld: true };
    try {
      return await this.#holding(await this.#acquire(purpose, hold), hold, task);
    } finally {
      hold.isHeld = false; // also when taking the lock failed (a takeover's repair threw)
      queue.waiting -= 1;
      if (queue.waiting === 0) queues.delete(this.#key);
      release();
    }
  }

  /**
   * Runs `task` holding the lock only if it is free right now: no waiting and no takeover (a lock
   * held, or left by a holder that died, is `busy`, left for `withLock`, which waits or repairs).
   * For work that merely gets ahead when it can (a one-shot checkpoint's walk before its core loads).
   */
  async tryWithLock<T>(task: () => Promise<T>, purpose?: string): Promise<TryLockOutcome<T>> {
    if (this.isHeldHere()) return { kind: 'held', value: await task() };
    if (queues.has(this.#key)) return { kind: 'busy' };
    let release = (): void => undefined;
    const queue = {
      tail: new Promise<void>((resolve) => {
        release = resolve;
      }),
      waiting: 1,
    };
    queues.set(this.#key, queue);
    const hold: Hold = { isHeld: true };
    try {
      const holder = newLockHolder(purpose, await ownStartTime().catch(() => undefined));
      const isCreated = await createExclusive(this.#options.path, JSON.stringify(holder)).catch(() => false);
      if (!isCreated) return { kind: 'busy' };
      this.#current = holder;
      hold.holder = holder;
      return { kind: 'held', value: await this.#holding(holder, hold, task) };
    } finally {
      hold.isHeld = false;
      queue.waiting -= 1;
      if (queue.waiting === 0) queues.delete(this.#key);
      release();
    }
  }

  /** Runs `task` under an acquisition just made, refreshing the lock file meanwhile; releases it after. */
  async #holding<T>(holder: LockHolder, hold: Hold, task: () => Promise<T>): Promise<T> {
    const heartbeat = setInterval(() => {
      const now = new Date();
      void utimes(this.#options.path, now, now).catch(() => undefined);
    }, this.#options.heartbeatMs);
    heartbeat.unref();
    try {
      return await heldLocks.run(this.#withThisLock(hold), task);
    } finally {
      hold.isHeld = false;
      clearInterval(heartbeat);
      this.#options.onHoldEnding?.();
      await this.#release(holder);
    }
  }

  /**
   * Fails with `conflict` unless this process still holds the lock file. Call it right before an
   * irreversible step (moving a ref) to catch the rare case of a lock taken over from under us.
   */
  async assertHeld(): Promise<void> {
    // Another FileLock of this path may have taken the hold the caller runs under.
    const hold = heldLocks.getStore()?.get(this.#key);
    const holder = this.#current ?? (hold?.isHeld === true ? hold.holder : undefined);
    const onDisk = await readSmallFile(this.#options.path).then(parseLockHolder, () => undefined);
    if (holder === undefined || onDisk?.token !== holder.token) {
      throw new AppError(
        'conflict',
        `Lost the lock on ${this.#options.resource} (${this.#options.path}) to another process; nothing was changed. Try again.`,
      );
    }
  }

  async #acquire(purpose: string | undefined, hold: Hold): Promise<LockHolder> {
    const lockPath = this.#options.path;
    const deadline = Date.now() + this.#options.timeoutMs;
    const startedAt = await ownStartTime();
    let delay = 2;
    /** The holder last seen stopped (by its token) and since when: another holder starts the count again. */
    let stopped: { readonly token: string; readonly since: number } | undefined;
    for (;;) {
      const holder = newLockHolder(purpose, startedAt);
      const isCreated = await createExclusive(lockPath, JSON.stringify(holder)).catch((error: unknown) => {
        throw fileSystemError(error, `create the lock file for ${this.#options.resource} at`, lockPath);
      });
      if (isCreated) {
        this.#current = holder;
        hold.holder = holder;
        return holder;
      }
      const observed = await observeFile(lockPath);
      if (observed === undefined) continue; // released between our attempt and our look: try again
      const reason = await this.#staleReason(observed);
      if (
        reason !== undefined &&
        (await replaceAbandoned(lockPath, observed, holder, (claim) => this.#staleReason(claim)))
      ) {
        await this.#afterTakeover(holder, hold, observed.holder, reason);
        return holder;
      }
      const by = observed.holder;
      // A stopped holder cannot finish until resumed: say so rather than wait out the timeout.
      if (by === undefined || !(await isHolderStopped(by))) stopped = undefined;
      else if (stopped?.token !== by.token) stopped = { token: by.token, since: Date.now() };
      if (by !== undefined && stopped !== undefined && Date.now() - stopped.since >= stoppedHolderGraceMs) {
        throw new AppError(
          'busy',
          `${this.#options.resource} is locked by ${describeHolder(by)}, which is stopped (suspended with Ctrl+Z or SIGSTOP) and cannot finish. Resume it (fg in its terminal, or kill -CONT ${by.pid}) or end it, then try again.`,
          { lockPath, holder: by, isHolderStopped: true },
        );
      }
      if (Date.now() > deadline) {
        throw new AppError(
          'busy',
          `${this.#options.resource} is locked by ${describeHolder(by)}. Wait for it to finish; if no Vigil process is running, delete ${lockPath}.`,
          {
            lockPath,
            holder: by,
          },
        );
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 100);
    }
  }

  #staleReason(observed: ObservedFile): Promise<string | undefined> {
    return staleReason(observed.holder, observed.ageMs, { staleMs: this.#options.staleMs, garbageMs: 1_000 });
  }

  /** Now holding a lock taken over: tidies what dead contenders left, then lets the owner repair. */
  async #afterTakeover(
    holder: LockHolder,
    hold: Hold,
    abandoned: LockHolder | undefined,
    reason: string,
  ): Promise<void> {
    this.#current = holder;
    hold.holder = holder;
    await sweepLockLitter(
      this.#options.path,
      10_000,
      async (litter) => (await this.#staleReason(litter)) !== undefined,
    );
    if (this.#options.onTakeover === undefined) return;
    try {
      await heldLocks.run(
        this.#withThisLock(hold),
        () => this.#options.onTakeover?.(abandoned, reason) ?? Promise.resolve(),
      );
    } catch (error) {
      await this.#release(holder);
      throw error;
    }
  }

  /** The acquisitions of the current context, plus `hold` of this lock. */
  #withThisLock(hold: Hold): ReadonlyMap<string, Hold> {
    return new Map(heldLocks.getStore() ?? []).set(this.#key, hold);
  }

  async #release(holder: LockHolder): Promise<void> {
    this.#current = undefined;
    const lockPath = this.#options.path;
    // Remove the file only if it is still ours (it may have been taken over after a long stall).
    const onDisk = await readSmallFile(lockPath).then(parseLockHolder, () => undefined);
    if (onDisk?.token === holder.token) await unlink(lockPath).catch(() => undefined);
  }
}
