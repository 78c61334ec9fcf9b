import type { z } from 'zod';
import { AppError } from './errors';

/** The dotted path of a schema issue (`roots.0`), or `(root)` for the value itself. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(root)' : path.map(String).join('.');
}

/** Turns a failed parse into an `invalid_request` AppError whose message and details name the field. */
export function validationError(what: string, error: z.ZodError): AppError {
  const issues = error.issues.map((issue) => ({ field: issuePath(issue.path), message: issue.message }));
  const first = issues[0] ?? { field: '(root)', message: 'invalid' };
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new AppError('invalid_request', `${what}: field "${first.field}": ${first.message}${more}`, {
    field: first.field,
    issues,
  });
}

/** Parses a value with a schema, throwing an `invalid_request` AppError that names the field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(what, parsed.error);
  return parsed.data;
}
