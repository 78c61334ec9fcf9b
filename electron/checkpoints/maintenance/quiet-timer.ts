import { performance } from 'node:perf_hooks';

/** How long background work waits for the store to be quiet, and how long at most. */
export interface QuietTiming {
  /** Runs once nothing touched the store for this long (default 5 s). */
  readonly quietMs?: number;
  /** Runs at most this long after it was first asked for, quiet or not (default 60 s). */
  readonly maxWaitMs?: number;
}

/** The store's background maintenance waits for 5 s without a checkpoint or restore... */
export const defaultQuietMs = 5_000;
/** ...but never more than a minute after it was asked for, so a core that is never quiet still tidies its store. */
export const defaultMaxWaitMs = 60_000;

/**
 * Runs `task` once the store has been quiet (no `noteActivity` for `quietMs`), or `maxWaitMs` after
 * the oldest `request` it has not run for yet, whichever comes first. Requests coalesce; activity
 * pushes the run back, up to that bound. A task that resolves false (it gave way, or found a restore
 * running) is tried again after the next quiet spell, keeping its request's bound; requests made while
 * it ran get their own run after it, never beside it (`running` is then always the one run there is).
 */
export class QuietTimer {
  readonly #quietMs: number;
  readonly #maxWaitMs: number;
  #timer: NodeJS.Timeout | undefined;
  #lastActivityAt = Number.NEGATIVE_INFINITY;
  /** When the oldest request not yet done was made. */
  #requestedAt: number | undefined;
  #isDisposed = false;
  #isRunning = false;
  #running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly task: () => Promise<boolean>,
    timing: QuietTiming = {},
  ) {
    this.#quietMs = timing.quietMs ?? defaultQuietMs;
    this.#maxWaitMs = Math.max(timing.maxWaitMs ?? defaultMaxWaitMs, this.#quietMs);
  }

  /** Store work happened now (a checkpoint, a restore starting or ending): a waiting run waits for quiet again. */
  noteActivity(): void {
    this.#lastActivityAt = performance.now();
  }

  /** Asks for a run (coalesced with one already asked for). */
  request(): void {
    if (this.#isDisposed) return;
    this.#requestedAt ??= performance.now();
    if (this.#timer === undefined) this.#arm(this.#quietMs);
  }

  /** The run now, if any (awaited before disposal). */
  get running(): Promise<unknown> {
    return this.#running;
  }

  dispose(): void {
    this.#isDisposed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(() => this.#fire(), delayMs);
    this.#timer.unref();
  }

  #fire(): void {
    this.#timer = undefined;
    // A request made while the task runs is armed again when it ends (`#run`).
    if (this.#isDisposed || this.#isRunning || this.#requestedAt === undefined) return;
    const now = performance.now();
    const untilQuiet = this.#lastActivityAt + this.#quietMs - now;
    const untilBound = this.#requestedAt + this.#maxWaitMs - now;
    const wait = Math.min(untilQuiet, untilBound);
    if (wait > 0) this.#arm(wait);
    else {
      // Requests made while the task runs get a run of their own after it.
      const requestedAt = this.#requestedAt;
      this.#requestedAt = undefined;
      this.#running = this.#run(requestedAt);
    }
  }

  async #run(requestedAt: number): Promise<void> {
    this.#isRunning = true;
    let isDone = false;
    try {
      isDone = await this.task();
    } finally {
      this.#isRunning = false;
      if (!isDone) this.#requestedAt = Math.min(this.#requestedAt ?? requestedAt, requestedAt);
      if (!this.#isDisposed && this.#requestedAt !== undefined && this.#timer === undefined) this.#arm(this.#quietMs);
    }
  }
}
