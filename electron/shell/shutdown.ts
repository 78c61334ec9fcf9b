import type { Logger } from '../logging';

/** How a shutdown ended. */
export type ShutdownOutcome = 'clean' | 'failed' | 'timed-out';

/**
 * Runs the app's shutdown (dispose the gateway and the core: flush session logs, release locks)
 * but never lets it hold the app open forever: after `timeoutMs` the app quits anyway and the log
 * says so. Errors are logged, not thrown, so quitting always completes.
 */
export async function shutDownWithin(
  task: () => Promise<void>,
  timeoutMs: number,
  logger: Logger,
): Promise<ShutdownOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<ShutdownOutcome>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), timeoutMs);
  });
  const finished = task().then(
    (): ShutdownOutcome => 'clean',
    (error: unknown): ShutdownOutcome => {
      logger.error('shutdown failed; quitting anyway', { error });
      return 'failed';
    },
  );
  const outcome = await Promise.race([finished, timedOut]);
  clearTimeout(timer);
  if (outcome === 'timed-out') logger.error('shutdown did not finish in time; quitting anyway', { timeoutMs });
  await logger.flush();
  return outcome;
}
