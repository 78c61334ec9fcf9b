import { AsyncLocalStorage } from 'node:async_hooks';
import type { LockHolder } from './lock-holder';

/** One acquisition of a lock: `isHeld` turns false on release; `holder` is the record it wrote (any FileLock of the path in the holding context checks it). */
export interface Hold {
  isHeld: boolean;
  holder?: LockHolder;
}

/**
 * The acquisitions of lock files the current async context runs under, so that a holder may
 * re-enter its own lock. Async context outlives a lock (a promise started under it and awaited
 * after its release still carries it), hence the `isHeld` flag rather than mere presence.
 */
export const heldLocks = new AsyncLocalStorage<ReadonlyMap<string, Hold>>();

/**
 * Runs `work` outside every lock of the current context: for work that outlives the locked task
 * (a background check, a capture, change listeners), which must take a lock itself — after the
 * task released it — instead of running under the task's hold.
 */
export function runOutsideFileLocks<R>(work: () => R): R {
  return heldLocks.exit(work);
}
