/**
 * Reading the fields of an agent's hook input by hand (no schema library: this runs in the hook
 * process on every tool call). A wrong field throws a HookFieldError that names it.
 */

/** A field of the input that is missing or of the wrong type. */
export class HookFieldError extends Error {
  override readonly name = 'HookFieldError';

  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** A plain JSON object. */
export type JsonObject = Readonly<Record<string, unknown>>;

/** Whether a value is a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** A required non-empty string field. */
export function requiredText(record: JsonObject, key: string, field: string = key): string {
  const value = record[key];
  if (value === undefined) throw new HookFieldError(field, `"${field}" is missing`);
  if (typeof value !== 'string') throw new HookFieldError(field, `"${field}" is ${kindOf(value)}, not a string`);
  if (value.trim() === '') throw new HookFieldError(field, `"${field}" is empty`);
  return value;
}

/** A string field that may be missing (or null); of the wrong type it is an error. */
export function optionalText(record: JsonObject, key: string, field: string = key): string | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new HookFieldError(field, `"${field}" is ${kindOf(value)}, not a string`);
  return value;
}

/** The first of several spellings of a string field that is present (documentation that names it two ways). */
export function optionalTextOf(record: JsonObject, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = optionalText(record, key);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** A required object field. */
export function requiredObject(record: JsonObject, key: string, field: string = key): JsonObject {
  const value = record[key];
  if (value === undefined) throw new HookFieldError(field, `"${field}" is missing`);
  if (!isJsonObject(value)) throw new HookFieldError(field, `"${field}" is ${kindOf(value)}, not an object`);
  return value;
}

/** Whether a path is absolute on POSIX (`/…`) or Windows (`C:\\…`, `\\\\server\\…`) — this file loads no `node:path`. */
export function isAbsolutePath(value: string): boolean {
  return value.startsWith('/') || /^[A-Za-z]:[\\/]/u.test(value) || value.startsWith('\\\\');
}

/** The fields every event of both agents carries. */
export function commonFields(record: JsonObject): {
  readonly sessionId: string;
  readonly cwd: string;
  readonly transcriptPath?: string;
} {
  const sessionId = requiredText(record, 'session_id');
  const cwd = requiredText(record, 'cwd');
  if (!isAbsolutePath(cwd))
    throw new HookFieldError(
      'cwd',
      `"cwd" is the relative path "${cwd}": Vigil needs the agent's working folder as an absolute path to know where its tools act`,
    );
  const transcriptPath = optionalText(record, 'transcript_path');
  return { sessionId, cwd, ...(transcriptPath === undefined || transcriptPath === '' ? {} : { transcriptPath }) };
}
