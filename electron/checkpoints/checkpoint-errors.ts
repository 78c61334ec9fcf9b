import { AppError, isAppError } from '../../shared/errors';
import { errnoCode, fileSystemError } from '../files';
import type { Logger } from '../logging';

/** Turns anything thrown inside the engine into an AppError (fs errors named, bugs logged). */
export function asAppError(error: unknown, logger: Logger, action: string): AppError {
  if (isAppError(error)) return error;
  if (errnoCode(error) !== undefined) {
    logger.warn(`checkpoint engine could not ${action}`, { error });
    const failure = fileSystemError(error, 'use', (error as NodeJS.ErrnoException).path ?? 'the checkpoint store');
    return new AppError(failure.code, `Could not ${action}. ${failure.message}`, failure.details);
  }
  logger.error(`checkpoint engine failed to ${action}`, { error });
  return new AppError('unexpected', `The checkpoint engine failed to ${action}; the details are in the log.`);
}
