import type { MemoryChange } from '../../../shared/contract/memory-contract';
import type { MemoryService } from '../memory-service';

/** Records every change a memory service reports and lets a test wait for a specific one. */
export class ChangeRecorder {
  readonly changes: MemoryChange[] = [];
  readonly #waiters = new Set<{ test: (change: MemoryChange) => boolean; resolve: (change: MemoryChange) => void }>();
  readonly #unsubscribe: () => void;

  constructor(service: MemoryService) {
    this.#unsubscribe = service.onChange((change) => {
      this.changes.push(change);
      for (const waiter of this.#waiters) {
        if (waiter.test(change)) {
          this.#waiters.delete(waiter);
          waiter.resolve(change);
        }
      }
    });
  }

  /** The first change (already recorded or still to come) that passes `test`; rejects after `timeoutMs` naming `what`. */
  waitFor(what: string, test: (change: MemoryChange) => boolean, timeoutMs = 10_000): Promise<MemoryChange> {
    const seen = this.changes.find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter = {
        test,
        resolve: (change: MemoryChange) => {
          clearTimeout(timer);
          resolve(change);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new Error(`no change reported: ${what} (after ${timeoutMs} ms; ${this.changes.length} changes seen)`));
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }

  /** Waits for the change whose new version has this sha256. */
  waitForVersion(sha256: string, what: string): Promise<MemoryChange> {
    return this.waitFor(what, (change) => change.current.sha256 === sha256);
  }

  dispose(): void {
    this.#unsubscribe();
  }
}
