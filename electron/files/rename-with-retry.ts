import { rename } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { errnoCode } from './file-system-error';

/** Errors Windows returns while a virus scanner, indexer or editor briefly holds the target open. */
const transientOnWindows = new Set(['EPERM', 'EBUSY', 'EACCES']);

/** Total back-off before giving up on Windows (ms), in growing steps. */
const delays = [5, 10, 20, 40, 80, 160, 320, 500];

/**
 * Renames `from` over `to`. On Windows a held target makes the rename fail for a moment, so it is
 * retried briefly (about a second in total); elsewhere a failure is final at once.
 */
export async function renameWithRetry(from: string, to: string): Promise<void> {
  for (const delay of delays) {
    try {
      await rename(from, to);
      return;
    } catch (error) {
      if (process.platform !== 'win32' || !transientOnWindows.has(errnoCode(error) ?? '')) throw error;
      await sleep(delay);
    }
  }
  await rename(from, to);
}
