import { appendFile, mkdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { maskSecretValues } from '../../shared/secrets/mask-secret-values';

/** The log levels, most severe first. */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/** Where the core writes what happened; passed into every service. */
export interface Logger {
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  debug(message: string, fields?: Readonly<Record<string, unknown>>): void;
  /** Resolves when every line logged so far is on disk. */
  flush(): Promise<void>;
}

/** Options of the file logger. */
export interface FileLoggerOptions {
  readonly directory: string;
  readonly fileName?: string;
  /** Rotate when the file passes this size (bytes). */
  readonly maxBytes?: number;
  /** How many rotated files to keep (`vigil.log.1` … `vigil.log.N`). */
  readonly keep?: number;
  /** Also echo lines at or above this level to this sink (for the CLI's stderr). */
  readonly echo?: { readonly level: LogLevel; readonly write: (line: string) => void };
}

const severity: Readonly<Record<LogLevel, number>> = { error: 0, warn: 1, info: 2, debug: 3 };

/** Serializes an error with its stack so bugs can be diagnosed from the log; every string has secret-looking values masked. */
function serializeField(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskSecretValues(value);
  if (value instanceof Error)
    return {
      name: value.name,
      message: maskSecretValues(value.message),
      stack: value.stack === undefined ? undefined : maskSecretValues(value.stack),
    };
  if (typeof value !== 'object' || value === null || depth > 6) return value;
  if (Array.isArray(value)) return value.map((item) => serializeField(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, serializeField(item, depth + 1)]));
}

/** Why the log folder cannot be used, and what to do about it. */
function logFolderProblem(directory: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const what =
    code === 'EEXIST' || code === 'ENOTDIR'
      ? `${directory} (or a folder above it) is a file, not a folder`
      : `${directory} cannot be created (${code ?? String(error)})`;
  return `the log is off for this run: ${what}. Move that file aside (or fix its permissions) so Vigil can keep its logs there.`;
}

/** A log line as it is echoed to a terminal (`vigil: warn: …`), secrets masked. */
export function echoLine(level: LogLevel, message: string): string {
  return `vigil: ${level}: ${maskSecretValues(message)}`;
}

/** A JSON-lines logger with size-based rotation, secret-looking values masked; writes are queued, never synchronous. */
export function createFileLogger(options: FileLoggerOptions): Logger {
  const fileName = options.fileName ?? 'vigil.log';
  const filePath = path.join(options.directory, fileName);
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const keep = options.keep ?? 5;
  // Check the size every so many bytes, not on every line; small limits are checked more often,
  // so no file grows far past `maxBytes`.
  const checkEvery = Math.max(1, Math.min(64 * 1024, Math.floor(maxBytes / 8)));
  // A log folder that cannot be made (a file in its place, no permission) turns the file log off,
  // said once where the echo goes: the command itself still runs.
  let queue: Promise<void> = mkdir(options.directory, { recursive: true, mode: 0o700 }).then(
    () => undefined,
    (error: unknown) => {
      // Lines queued after this fail to append, and each is dropped by its step's catch below.
      options.echo?.write(`${echoLine('warn', logFolderProblem(options.directory, error))}\n`);
    },
  );
  let bytesSinceCheck = Number.POSITIVE_INFINITY;

  async function rotateIfNeeded(): Promise<void> {
    if (bytesSinceCheck < checkEvery) return;
    bytesSinceCheck = 0;
    const size = await stat(filePath).then(
      (s) => s.size,
      () => 0,
    );
    if (size < maxBytes) return;
    await unlink(`${filePath}.${keep}`).catch(() => undefined);
    for (let index = keep - 1; index >= 1; index -= 1) {
      await rename(`${filePath}.${index}`, `${filePath}.${index + 1}`).catch(() => undefined);
    }
    await rename(filePath, `${filePath}.1`).catch(() => undefined);
  }

  function log(level: LogLevel, message: string, fields?: Readonly<Record<string, unknown>>): void {
    // Whatever a caller put in a message or a field, a value that looks like a secret never reaches the log.
    const record: Record<string, unknown> = {
      time: new Date().toISOString(),
      level,
      pid: process.pid,
      message: maskSecretValues(message),
    };
    if (fields) for (const [key, value] of Object.entries(fields)) record[key] = serializeField(value);
    const line = `${JSON.stringify(record)}\n`;
    if (options.echo && severity[level] <= severity[options.echo.level]) {
      options.echo.write(`${echoLine(level, message)}\n`);
    }
    queue = queue
      .then(async () => {
        await rotateIfNeeded();
        await appendFile(filePath, line, { mode: 0o600 });
        bytesSinceCheck += line.length;
      })
      .catch(() => undefined);
  }

  return {
    error: (message, fields) => log('error', message, fields),
    warn: (message, fields) => log('warn', message, fields),
    info: (message, fields) => log('info', message, fields),
    debug: (message, fields) => log('debug', message, fields),
    flush: () => queue,
  };
}

/** A logger that drops everything (for tests that do not look at logs). */
export const silentLogger: Logger = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  flush: () => Promise.resolve(),
};
