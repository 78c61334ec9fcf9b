import { isAppError, type AppErrorData } from './errors';

/** The outcome of every call across a boundary: a value, or an error as data. */
export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AppErrorData };

/** A successful result. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A failed result. */
export function fail<T = never>(error: AppErrorData): Result<T> {
  return { ok: false, error };
}

/** The safe message given for a bug; the real one stays in the log. */
export const unexpectedMessage =
  'Something went wrong inside Vigil. The details were written to the log; please report them.';

/**
 * Turns anything thrown into error data: AppErrors keep their code, message and details;
 * everything else is a bug and becomes `unexpected` with a safe message.
 */
export function toErrorData(error: unknown): AppErrorData {
  if (isAppError(error)) return error.toData();
  return { code: 'unexpected', message: unexpectedMessage };
}
