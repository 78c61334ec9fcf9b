/** The closed set of error codes that cross every boundary (IPC, WebSocket, MCP, CLI). */
export const errorCodes = [
  /** A request, tool call or frame failed its schema; `details.field` names the field. */
  'invalid_request',
  /** The call, tool or command name is not part of the contract. */
  'unknown_call',
  /** No token, or the wrong one. */
  'unauthorized',
  /** A path resolves outside every workspace root of the session. */
  'outside_workspace',
  /** A path is inside a root but protected (credentials, system folders). */
  'forbidden_path',
  /** The thing named does not exist (file, checkpoint, session, directory). */
  'not_found',
  /** The target exists and is of the wrong kind (a directory where a file was expected, …). */
  'wrong_kind',
  /** The state on disk changed under us; nothing was written (memory drift, stale plan, moved ref). */
  'conflict',
  /** A size, count or character limit would be exceeded. */
  'limit_exceeded',
  /** A substring or patch matched nothing. */
  'no_match',
  /** A substring or patch matched more than once. */
  'ambiguous_match',
  /** Another writer holds the lock and did not release it in time. */
  'busy',
  /** The operation, or a human decision, did not finish in time. */
  'timeout',
  /** Policy or a human refused the call. */
  'denied',
  /** The call would overwrite a file another live session changed recently; a person (or the collision setting) held it back. */
  'collision',
  /** The operating system refused an I/O operation (permissions, full disk, …). */
  'io_error',
  /** The request is valid but not supported here (platform, configuration, missing runtime). */
  'unsupported',
  /** The caller cancelled the operation. */
  'cancelled',
  /** A tool the agent ran itself (reported through its hooks, not run by Vigil) failed; the message is the agent's. */
  'tool_failed',
  /** The connection to the core dropped before the answer came; the call may or may not have run. */
  'disconnected',
  /** A bug: the message is safe to show; the stack is in the log. */
  'unexpected',
] as const;

/** One of the closed set of error codes. */
export type ErrorCode = (typeof errorCodes)[number];

/** The plain-data form of an error, as it crosses a boundary. */
export interface AppErrorData {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** An expected failure with a code; anything else thrown is a bug and becomes `unexpected`. */
export class AppError extends Error {
  override readonly name = 'AppError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }

  /** The error as plain data, ready to cross a boundary. */
  toData(): AppErrorData {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** Whether a value is an AppError (also across realms, by shape). */
export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Whether a string is one of the closed set of codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (errorCodes as readonly string[]).includes(value);
}
