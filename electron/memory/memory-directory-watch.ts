import path from 'node:path';
import type { Disposer } from '../lib';
import { isDirectory } from '../files';
import type { Logger } from '../logging';
import { defaultAppearPollMs, type ResolvedMemoryDirectory } from './memory-config';
import type { MemoryFileState } from './memory-file-state';
import { memoryFileNames } from './memory-format';
import { watchMemoryDirectory } from './memory-watcher';

/** How a watching memory service watches its folders. */
export interface MemoryWatchSettings {
  readonly debounceMs?: number;
  readonly maxWaitMs?: number;
  /** The watcher's re-check backstop (see memory-watcher.ts). */
  readonly pollMs?: number;
  /** How often a missing folder (Hermes's, before Hermes creates it) is looked for. */
  readonly appearPollMs?: number;
  /**
   * Where each folder's watch stands: `watching` (it existed at the start), `waiting` (it does not
   * exist yet and is looked for), `appeared` (a folder waited for exists now and is watched).
   */
  readonly onWatchState?: (dir: string, state: 'watching' | 'waiting' | 'appeared') => void;
}

/** What watching one memory folder needs from the service. */
export interface DirectoryWatchOptions {
  readonly directory: ResolvedMemoryDirectory;
  readonly states: readonly MemoryFileState[];
  readonly settings: MemoryWatchSettings;
  readonly logger: Logger;
  readonly reportProblem: (message: string) => void;
  /** Reads a file after notifications and reports a new version (in the file's queue). */
  readonly refresh: (state: MemoryFileState, notifications: number) => Promise<unknown>;
  /** Re-checks a file: a read only when it is not the version last read. */
  readonly recheck: (state: MemoryFileState) => Promise<void>;
  /** The watcher runs (the folder is watched from now on). */
  readonly onWatched: () => void;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Starts the chokidar watcher of a folder that exists, reading changed files in their queues. */
async function startWatcher(options: DirectoryWatchOptions): Promise<Disposer> {
  const { directory, settings, logger, reportProblem } = options;
  const byName = new Map(options.states.map((state) => [path.basename(state.file), state]));
  const dispose = await watchMemoryDirectory({
    dir: directory.path,
    fileNames: Object.values(memoryFileNames),
    debounceMs: settings.debounceMs,
    maxWaitMs: settings.maxWaitMs,
    pollMs: settings.pollMs,
    onSettled: (fileName, notifications, reason) => {
      const state = byName.get(fileName);
      if (state === undefined) return;
      const task = (): Promise<unknown> =>
        reason === 'notified' ? options.refresh(state, notifications) : options.recheck(state);
      state.run(task).catch((error: unknown) => {
        logger.warn('could not read a changed memory file', { file: state.file, error });
        reportProblem(`Could not read ${state.file} after it changed: ${describe(error)}`);
      });
    },
    onError: (error) => {
      logger.error('memory watcher failed', { dir: directory.path, error });
      reportProblem(
        `Watching ${directory.path} failed: ${describe(error)}. External edits may go unnoticed until Vigil restarts.`,
      );
    },
  });
  options.onWatched();
  return dispose;
}

/**
 * Watches one memory folder for external edits. A folder that does not exist yet (Hermes's
 * memories before Hermes first writes one) is looked for every `appearPollMs`; once it appears it
 * is watched, and its files are read (a file found then is reported as created, and captured).
 */
export async function watchManagedDirectory(options: DirectoryWatchOptions): Promise<Disposer> {
  const { directory, logger, reportProblem } = options;
  const start = async (): Promise<Disposer | undefined> => {
    try {
      return await startWatcher(options);
    } catch (error) {
      logger.error('could not watch a memory directory', { dir: directory.path, error });
      reportProblem(
        `Could not watch ${directory.path}; external edits will be noticed only when Vigil next reads the file.`,
      );
      return undefined;
    }
  };
  const report = (state: 'watching' | 'waiting' | 'appeared'): void =>
    options.settings.onWatchState?.(directory.path, state);
  if (await isDirectory(directory.path)) {
    const stop = await start();
    if (stop !== undefined) report('watching');
    return async () => stop?.();
  }
  report('waiting');
  const looking: { stop: Disposer | undefined; isDisposed: boolean; timer: NodeJS.Timeout | undefined } = {
    stop: undefined,
    isDisposed: false,
    timer: undefined,
  };
  // A function, not the field: disposal can happen during any await below.
  const isDisposed = (): boolean => looking.isDisposed;
  /** Looks once; true when the folder is there (and watched now), so looking ends. */
  const lookOnce = async (): Promise<boolean> => {
    if (!(await isDirectory(directory.path)) || isDisposed()) return false;
    // Watch first, then read: nothing written after the folder appeared can slip between the two.
    looking.stop = await start();
    if (isDisposed()) {
      await looking.stop?.();
      return true;
    }
    report('appeared');
    for (const state of options.states) {
      await state
        .run(() => options.refresh(state, 0))
        .catch((error: unknown) => logger.warn('could not read a memory file', { file: state.file, error }));
    }
    logger.info('a memory folder appeared and is watched now', { dir: directory.path });
    return true;
  };
  // The next look is armed only when this one is done, so looks never overlap.
  const arm = (): void => {
    looking.timer = setTimeout(() => {
      void lookOnce().then((isFound) => {
        if (!isFound && !isDisposed()) arm();
      });
    }, options.settings.appearPollMs ?? defaultAppearPollMs);
    looking.timer.unref();
  };
  arm();
  return async () => {
    looking.isDisposed = true;
    clearTimeout(looking.timer);
    await looking.stop?.();
  };
}
