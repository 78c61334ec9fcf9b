import { watch } from 'node:fs';
import type { Disposer } from '../lib';
import type { Logger } from '../logging';

/** Coalesces the appends of one change (a call's records are flushed together). */
const settleMs = 100;

/**
 * Lets a resident core see sessions other Vigil processes log in the same folder (`vigil tool
 * --local`, `vigil mcp --local`): each changed `<id>.jsonl` is read again and shown like the core's
 * own sessions. Returns the disposer.
 */
export function watchSessionFolder(options: {
  readonly directory: string;
  readonly reload: (sessionId: string) => Promise<void>;
  readonly logger: Logger;
}): Disposer {
  const pending = new Map<string, NodeJS.Timeout>();
  let running: Promise<void> = Promise.resolve();
  let watcher: ReturnType<typeof watch> | undefined;
  try {
    watcher = watch(options.directory, { persistent: false }, (_event, filename) => {
      const match = filename === null ? null : /^(.+)\.jsonl$/.exec(filename);
      const sessionId = match?.[1];
      if (sessionId === undefined) return;
      clearTimeout(pending.get(sessionId));
      pending.set(
        sessionId,
        setTimeout(() => {
          pending.delete(sessionId);
          running = running
            .then(() => options.reload(sessionId))
            .catch((error: unknown) =>
              options.logger.warn('could not read a session another process logged', { sessionId, error }),
            );
        }, settleMs),
      );
    });
    watcher.on('error', (error) =>
      options.logger.warn('stopped watching the sessions folder; sessions other processes log show after a restart', {
        error,
      }),
    );
  } catch (error) {
    options.logger.warn('could not watch the sessions folder; sessions other processes log show after a restart', {
      error,
    });
  }
  return async () => {
    watcher?.close();
    for (const timer of pending.values()) clearTimeout(timer);
    pending.clear();
    await running;
  };
}
