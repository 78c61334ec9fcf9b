import type { Logger, LogLevel } from '../../logging/logger';

/** One line a recording logger kept. */
export interface RecordedLine {
  readonly level: LogLevel;
  readonly message: string;
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** A logger that keeps every line in memory, and lets a test wait for one. */
export interface RecordingLogger extends Logger {
  readonly lines: readonly RecordedLine[];
  /** Resolves with the first line (already logged or still to come) whose message includes `text`. */
  waitFor(text: string): Promise<RecordedLine>;
}

/** A logger for tests that asserts on what the code logs (a warning, a wait). */
export function recordingLogger(): RecordingLogger {
  const lines: RecordedLine[] = [];
  const waiters: { readonly text: string; readonly resolve: (line: RecordedLine) => void }[] = [];
  const record = (level: LogLevel) => (message: string, fields?: Readonly<Record<string, unknown>>) => {
    const line = fields === undefined ? { level, message } : { level, message, fields };
    lines.push(line);
    for (const waiter of waiters.filter((candidate) => message.includes(candidate.text))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  };
  return {
    lines,
    error: record('error'),
    warn: record('warn'),
    info: record('info'),
    debug: record('debug'),
    flush: () => Promise.resolve(),
    waitFor: (text) => {
      const seen = lines.find((line) => line.message.includes(text));
      return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ text, resolve }));
    },
  };
}
