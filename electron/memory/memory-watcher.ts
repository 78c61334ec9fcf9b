import path from 'node:path';
import { watch } from 'chokidar';
import type { Disposer } from '../lib';

/** How long a file must be quiet before it is read (a burst of writes is read once, at its end). */
export const defaultDebounceMs = 50;
/** The longest a file that keeps changing waits before it is read anyway. */
export const defaultMaxWaitMs = 250;
/** How often every file is re-checked even without a notification (a backstop; a re-check is one stat). */
export const defaultPollMs = 2000;

/**
 * Why a file is to be read: `notified` after file-system events; `confirm` once more, a debounce
 * after each read, because chokidar drops events that follow another within a few milliseconds
 * (its 5 ms throttle) and re-arms a replaced file's watch late; `poll` as a slow backstop.
 */
export type SettleReason = 'notified' | 'confirm' | 'poll';

/** Options of a memory directory watcher. */
export interface MemoryWatcherOptions {
  readonly dir: string;
  /** The file names to report (`MEMORY.md`, `USER.md`); everything else in the folder is ignored. */
  readonly fileNames: readonly string[];
  readonly debounceMs?: number;
  readonly maxWaitMs?: number;
  readonly pollMs?: number;
  /** A file settled after `notifications` file-system events (0 for a re-check); read it now. */
  readonly onSettled: (fileName: string, notifications: number, reason: SettleReason) => void;
  readonly onError: (error: unknown) => void;
}

interface Pending {
  notifications: number;
  firstAt: number;
  timer: NodeJS.Timeout;
}

/**
 * Watches a memory directory — the folder at depth 0, not the files, which may not exist yet and
 * are replaced by rename — and calls `onSettled` once a file has been quiet for `debounceMs` (or
 * has kept changing for `maxWaitMs`). A debounce, not chokidar's `awaitWriteFinish`, which delays
 * every event by its threshold and starves while a file keeps changing. Each read is confirmed by
 * one more a debounce later, and every file is re-checked every `pollMs`, because chokidar drops
 * the last events of a burst (measured: a resting version never notified). Resolves once chokidar
 * has scanned the folder, so changes made after that are seen.
 */
export async function watchMemoryDirectory(options: MemoryWatcherOptions): Promise<Disposer> {
  const debounceMs = options.debounceMs ?? defaultDebounceMs;
  const maxWaitMs = options.maxWaitMs ?? defaultMaxWaitMs;
  const wanted = new Set(options.fileNames);
  const pollMs = options.pollMs ?? defaultPollMs;
  const pending = new Map<string, Pending>();
  const confirmations = new Map<string, NodeJS.Timeout>();
  let isClosed = false;

  const confirm = (fileName: string): void => {
    confirmations.delete(fileName);
    if (!isClosed) options.onSettled(fileName, 0, 'confirm');
  };

  const settle = (fileName: string): void => {
    const entry = pending.get(fileName);
    pending.delete(fileName);
    if (entry === undefined || isClosed) return;
    options.onSettled(fileName, entry.notifications, 'notified');
    clearTimeout(confirmations.get(fileName));
    confirmations.set(
      fileName,
      setTimeout(() => confirm(fileName), debounceMs),
    );
  };

  const notify = (changedPath: string): void => {
    if (path.dirname(changedPath) !== options.dir) return;
    const fileName = path.basename(changedPath);
    if (!wanted.has(fileName)) return;
    clearTimeout(confirmations.get(fileName));
    confirmations.delete(fileName);
    const now = Date.now();
    const entry = pending.get(fileName);
    if (entry === undefined) {
      pending.set(fileName, { notifications: 1, firstAt: now, timer: setTimeout(() => settle(fileName), debounceMs) });
      return;
    }
    entry.notifications += 1;
    clearTimeout(entry.timer);
    const wait = Math.max(0, Math.min(debounceMs, entry.firstAt + maxWaitMs - now));
    entry.timer = setTimeout(() => settle(fileName), wait);
  };

  const watcher = watch(options.dir, {
    depth: 0,
    ignoreInitial: true,
    ignored: (candidate: string) => candidate !== options.dir && !wanted.has(path.basename(candidate)),
  });
  watcher.on('add', notify).on('change', notify).on('unlink', notify);
  watcher.on('error', (error: unknown) => {
    if (!isClosed) options.onError(error);
  });
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  const poll = setInterval(() => {
    for (const fileName of wanted) if (!pending.has(fileName)) options.onSettled(fileName, 0, 'poll');
  }, pollMs);
  poll.unref();

  return async () => {
    isClosed = true;
    clearInterval(poll);
    for (const entry of pending.values()) clearTimeout(entry.timer);
    for (const timer of confirmations.values()) clearTimeout(timer);
    pending.clear();
    confirmations.clear();
    await watcher.close();
  };
}
