import path from 'node:path';
import { watch } from 'chokidar';
import type { Disposer } from '../core/disposable';

/** How long a file must be quiet before it is read (a burst of writes is read once, at its end). */
export const defaultDebounceMs = 50;
/** The longest a file that keeps changing waits before it is read anyway. */
export const defaultMaxWaitMs = 250;

/** Options of a memory directory watcher. */
export interface MemoryWatcherOptions {
  readonly dir: string;
  /** The file names to report (`MEMORY.md`, `USER.md`); everything else in the folder is ignored. */
  readonly fileNames: readonly string[];
  readonly debounceMs?: number;
  readonly maxWaitMs?: number;
  /** A file settled after `notifications` file-system events; read it now. */
  readonly onSettled: (fileName: string, notifications: number) => void;
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
 * every event by its threshold and starves while a file keeps changing. Resolves once chokidar has
 * scanned the folder, so changes made after that are seen.
 */
export async function watchMemoryDirectory(options: MemoryWatcherOptions): Promise<Disposer> {
  const debounceMs = options.debounceMs ?? defaultDebounceMs;
  const maxWaitMs = options.maxWaitMs ?? defaultMaxWaitMs;
  const wanted = new Set(options.fileNames);
  const pending = new Map<string, Pending>();
  let isClosed = false;

  const settle = (fileName: string): void => {
    const entry = pending.get(fileName);
    pending.delete(fileName);
    if (entry !== undefined && !isClosed) options.onSettled(fileName, entry.notifications);
  };

  const notify = (changedPath: string): void => {
    if (path.dirname(changedPath) !== options.dir) return;
    const fileName = path.basename(changedPath);
    if (!wanted.has(fileName)) return;
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

  return async () => {
    isClosed = true;
    for (const entry of pending.values()) clearTimeout(entry.timer);
    pending.clear();
    await watcher.close();
  };
}
