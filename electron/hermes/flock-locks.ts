import path from 'node:path';
import type { Logger } from '../logging';
import { FlockHelper, type FlockRequest } from './flock-helper';
import { findFlockHelperProgram, type FlockHelperProgram } from './flock-helper-program';

/** A flock held for the caller. */
export interface HeldFlock {
  /** Whether a real flock is held (false where none can be taken: Windows, no helper program). */
  readonly isLocked: boolean;
  release(): Promise<void>;
}

/** One acquisition. */
export interface FlockAcquisition extends FlockRequest {
  /** Where warnings go (a flock that cannot be taken, a lock lost); default: a process warning. */
  readonly logger?: Logger;
}

/** Options of a pool of flock helpers. */
export interface FlockLocksOptions {
  /** A helper idle this long exits (default 30 s); the next lock starts it again. */
  readonly idleMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  readonly platform?: NodeJS.Platform;
  /** Which helpers may be used, in order (default perl, then flock(1)). */
  readonly kinds?: readonly FlockHelperProgram['kind'][];
}

/** A lock path's helper and the queue of this process's acquisitions of it. */
interface Slot {
  readonly helper: FlockHelper;
  tail: Promise<void>;
  idle: NodeJS.Timeout | undefined;
  logger: Logger | undefined;
}

const notLocked: HeldFlock = { isLocked: false, release: () => Promise.resolve() };

/**
 * flock(2) locks for Node, through one helper process per lock file (see flock-helper.ts), so
 * Vigil and Hermes Agent — which flocks `MEMORY.md.lock` around every read-modify-write — never
 * interleave one. Where no flock can be taken (Windows, where Hermes uses msvcrt.locking; a system
 * with neither perl nor flock(1)) the acquisition says so once, as a warning, and goes on with
 * Vigil's own lock and drift checks only.
 */
export class FlockLocks {
  readonly #options: FlockLocksOptions;
  readonly #slots = new Map<string, Slot>();
  readonly #warned = new Set<string>();
  #program: Promise<FlockHelperProgram | undefined> | undefined;

  constructor(options: FlockLocksOptions = {}) {
    this.#options = options;
  }

  /** The helper program in use (undefined: none can be run here). */
  program(): Promise<FlockHelperProgram | undefined> {
    this.#program ??= findFlockHelperProgram(this.#options.env, this.#options.platform, this.#options.kinds);
    return this.#program;
  }

  /** Takes an exclusive flock on `lockPath` (waiting behind other holders, in this process and outside it). */
  async acquire(lockPath: string, request: FlockAcquisition): Promise<HeldFlock> {
    const program = await this.program();
    if (program === undefined) {
      this.#warnOnce(
        request.logger,
        (this.#options.platform ?? process.platform) === 'win32' ? 'windows' : 'no-helper',
        lockPath,
      );
      return notLocked;
    }
    const absolute = path.resolve(lockPath);
    const slot = this.#slot(program, absolute);
    slot.logger = request.logger;
    const previous = slot.tail;
    let done = (): void => undefined;
    slot.tail = new Promise<void>((resolve) => {
      done = resolve;
    });
    await previous;
    clearTimeout(slot.idle);
    try {
      await slot.helper.lock(request);
    } catch (error) {
      done();
      throw error;
    }
    let isReleased = false;
    return {
      isLocked: true,
      release: async () => {
        if (isReleased) return;
        isReleased = true;
        try {
          await slot.helper.unlock();
        } finally {
          this.#scheduleIdleStop(absolute, slot);
          done();
        }
      },
    };
  }

  /** Stops every helper (releasing whatever they hold). */
  async dispose(): Promise<void> {
    const slots = [...this.#slots.values()];
    this.#slots.clear();
    for (const slot of slots) clearTimeout(slot.idle);
    await Promise.all(slots.map((slot) => slot.helper.stop()));
  }

  #slot(program: FlockHelperProgram, absolute: string): Slot {
    const existing = this.#slots.get(absolute);
    if (existing !== undefined) return existing;
    const slot: Slot = {
      helper: new FlockHelper(program, absolute, () => {
        const message = `lost the flock on ${absolute}: its helper process ended while Vigil held it, so Hermes could write in between`;
        if (slot.logger === undefined) process.emitWarning(message);
        else slot.logger.error(message, { lockPath: absolute });
      }),
      tail: Promise.resolve(),
      idle: undefined,
      logger: undefined,
    };
    this.#slots.set(absolute, slot);
    return slot;
  }

  #scheduleIdleStop(absolute: string, slot: Slot): void {
    clearTimeout(slot.idle);
    slot.idle = setTimeout(() => {
      if (this.#slots.get(absolute) !== slot) return;
      void slot.tail.then(() => {
        if (slot.helper.isRunning && this.#slots.get(absolute) === slot) return slot.helper.stop();
        return undefined;
      });
    }, this.#options.idleMs ?? 30_000);
    slot.idle.unref();
  }

  #warnOnce(logger: Logger | undefined, reason: 'windows' | 'no-helper', lockPath: string): void {
    if (this.#warned.has(reason)) return;
    this.#warned.add(reason);
    const message =
      reason === 'windows'
        ? `Hermes's memory lock (${path.basename(lockPath)}) is not taken on Windows: Hermes locks it with msvcrt.locking, which Node cannot take without a native module. Vigil's own lock and drift checks still guard every change; avoid editing memory from Vigil while a Hermes session writes it.`
        : `Hermes's memory lock (${path.basename(lockPath)}) cannot be taken: neither perl nor flock(1) was found on PATH. Vigil's own lock and drift checks still guard every change; install perl to lock out Hermes during a change.`;
    if (logger === undefined) process.emitWarning(message);
    else logger.warn(message, { lockPath });
  }
}

let shared: FlockLocks | undefined;

/** The process's pool of flock helpers (idle helpers exit on their own; nothing to dispose). */
export function sharedFlockLocks(): FlockLocks {
  shared ??= new FlockLocks();
  return shared;
}
