import { writeFileAtomic } from '../files';
import type { Logger } from '../logging';
import type { WindowState } from './window-state';

/** Persists the window state without writing on every pixel of a drag. */
export interface WindowStateWriter {
  /** Remembers the latest state; it is written once the window has been still for a moment. */
  save(state: WindowState): void;
  /** Writes the pending state now (on close and on quit); resolves when it is on disk. */
  flush(): Promise<void>;
}

/**
 * A debounced writer for `window-state.json`. Writes go through the atomic writer one at a time,
 * so a crash mid-write leaves the previous state, never a torn file; a failed write is logged and
 * the window keeps working.
 */
export function createWindowStateWriter(file: string, logger: Logger, delayMs = 400): WindowStateWriter {
  let pending: WindowState | undefined;
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  function writePending(): Promise<void> {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const state = pending;
    pending = undefined;
    if (state === undefined) return writing;
    writing = writing
      .then(() => writeFileAtomic(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 }))
      .then(
        () => undefined,
        (error: unknown) => logger.warn('could not save the window state', { file, error }),
      );
    return writing;
  }

  return {
    save(state) {
      pending = state;
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => void writePending(), delayMs);
      timer.unref();
    },
    flush: writePending,
  };
}
