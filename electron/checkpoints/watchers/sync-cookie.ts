import { unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode, vigilTempName } from '../../files';

/** How a wait for the watcher to catch up ended: caught up, or why it could not be sure. */
export type CatchUp = { readonly kind: 'caught-up' } | { readonly kind: 'failed'; readonly reason: string };

/**
 * Sync cookies, as watchman uses them: a file with a fresh name is written into the watched root,
 * and once its own event comes back every event queued before it (one ordered queue per watcher:
 * one inotify descriptor per event loop, one FSEvents or ReadDirectoryChangesW stream) has been
 * delivered. The name is a Vigil temp-file name, so no checkpoint, restore or listing ever stores
 * or shows it, and a sweep removes one that a killed process left behind.
 */
export class SyncCookies {
  readonly #waiting = new Map<string, () => void>();

  constructor(private readonly root: string) {}

  /** Whether `name` (relative to the root) is a cookie being waited for; if so, its wait ends. */
  take(name: string): boolean {
    const resolve = this.#waiting.get(name);
    if (resolve === undefined) return false;
    this.#waiting.delete(name);
    resolve();
    return true;
  }

  /** Writes a cookie and waits (at most `timeoutMs`) for its event; the cookie is removed either way. */
  async sync(timeoutMs: number): Promise<CatchUp> {
    const name = vigilTempName('vigil-sync-cookie');
    const file = path.join(this.root, name);
    const seen = new Promise<void>((resolve) => this.#waiting.set(name, resolve));
    try {
      await writeFile(file, '', { flag: 'wx' });
    } catch (error) {
      this.#waiting.delete(name);
      return {
        kind: 'failed',
        reason: `could not write a sync cookie into ${this.root} (${errnoCode(error) ?? String(error)})`,
      };
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), timeoutMs);
      });
      const isLate = await Promise.race([seen.then(() => false), timedOut]);
      return isLate
        ? { kind: 'failed', reason: `the watcher did not report a sync cookie within ${timeoutMs} ms` }
        : { kind: 'caught-up' };
    } finally {
      clearTimeout(timer);
      this.#waiting.delete(name);
      // The cookie is a file this call made: one unlink removes it (rm's lstats are two more trips under the store lock).
      await unlink(file).catch((error: unknown) => {
        if (errnoCode(error) !== 'ENOENT') throw error;
      });
    }
  }
}
