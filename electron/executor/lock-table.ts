import type { Disposer } from '../lib';
import type { LockRequest } from '../tools';

interface Waiter {
  readonly mode: 'read' | 'write';
  isGranted: boolean;
  readonly onGranted: () => void;
}

/**
 * Read/write locks on many keys, granted first come, first served. A caller asks for all its keys
 * at once, and every key's queue is joined in the same synchronous step, so the queues agree on
 * one global order and no two callers can wait for each other (no deadlock). Readers of a key
 * share it; a writer holds it alone. Idle keys take no memory.
 */
export class LockTable {
  readonly #queues = new Map<string, Waiter[]>();

  /** Joins every key's queue now; resolves when all are held. */
  acquire(requests: readonly LockRequest[]): Promise<Disposer<void>> {
    const modes = new Map<string, 'read' | 'write'>();
    for (const request of requests) if (modes.get(request.key) !== 'write') modes.set(request.key, request.mode);
    if (modes.size === 0) return Promise.resolve(() => undefined);
    return new Promise((resolve) => {
      let pending = modes.size;
      const joined: [string, Waiter][] = [];
      const release = (): void => {
        for (const [key, waiter] of joined) this.#leave(key, waiter);
      };
      for (const [key, mode] of modes) {
        const waiter: Waiter = {
          mode,
          isGranted: false,
          onGranted: () => {
            pending -= 1;
            if (pending === 0) resolve(release);
          },
        };
        joined.push([key, waiter]);
        const queue = this.#queues.get(key) ?? [];
        queue.push(waiter);
        this.#queues.set(key, queue);
      }
      for (const key of modes.keys()) this.#grant(key);
    });
  }

  /** How many keys have holders or waiters (for tests and diagnostics). */
  get busyKeys(): number {
    return this.#queues.size;
  }

  #leave(key: string, waiter: Waiter): void {
    const queue = this.#queues.get(key);
    if (queue === undefined) return;
    const index = queue.indexOf(waiter);
    if (index !== -1) queue.splice(index, 1);
    if (queue.length === 0) this.#queues.delete(key);
    else this.#grant(key);
  }

  #grant(key: string): void {
    const queue = this.#queues.get(key) ?? [];
    for (let index = 0; index < queue.length; index += 1) {
      const waiter = queue[index];
      if (waiter === undefined) break;
      const isFree =
        waiter.mode === 'write' ? index === 0 : queue.slice(0, index).every((ahead) => ahead.mode === 'read');
      if (!isFree) break;
      if (!waiter.isGranted) {
        waiter.isGranted = true;
        waiter.onGranted();
      }
      if (waiter.mode === 'write') break;
    }
  }
}
