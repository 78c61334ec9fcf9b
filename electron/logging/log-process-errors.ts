import type { Disposer } from '../lib';
import type { Logger } from './logger';

/** How an error escaped: a thrown exception nobody caught, or a rejected promise nobody handled. */
export type EscapedErrorKind = 'uncaught-exception' | 'unhandled-rejection';

/**
 * Logs every error that escapes to the top of the process (with its stack) instead of letting it
 * kill the process or vanish: a bug in one handler must not take down the supervisor while agents
 * are mid-write. `onEscaped` lets the app also surface it (the desktop app reports it to the UI).
 */
export function logProcessErrors(
  logger: Logger,
  onEscaped: (error: unknown, kind: EscapedErrorKind) => void = () => undefined,
  target: NodeJS.Process = process,
): Disposer {
  const report = (error: unknown, kind: EscapedErrorKind): void => {
    logger.error(
      kind === 'uncaught-exception'
        ? 'uncaught exception in the main process'
        : 'unhandled promise rejection in the main process',
      {
        kind,
        error,
      },
    );
    try {
      onEscaped(error, kind);
    } catch (reportError) {
      logger.error('reporting an escaped error failed', { error: reportError });
    }
  };
  const onException = (error: Error): void => report(error, 'uncaught-exception');
  const onRejection = (reason: unknown): void => report(reason, 'unhandled-rejection');
  target.on('uncaughtException', onException);
  target.on('unhandledRejection', onRejection);
  return () => {
    target.off('uncaughtException', onException);
    target.off('unhandledRejection', onRejection);
  };
}
