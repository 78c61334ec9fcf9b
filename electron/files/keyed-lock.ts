import type { Disposer } from '../lib';

/**
 * An in-process lock per key: holders of the same key run one after the other, in the order they
 * asked; different keys run in parallel. Idle keys take no memory.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  /** Waits for every earlier holder of `key`, then holds it until the returned function is called. */
  async acquire(key: string): Promise<Disposer<void>> {
    const previous = this.tails.get(key);
    let release: Disposer<void> = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous === undefined ? held : previous.then(() => held);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    if (previous !== undefined) await previous;
    return release;
  }

  /** Runs `task` while holding `key`. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const release = await this.acquire(key);
    try {
      return await task();
    } finally {
      release();
    }
  }
}
