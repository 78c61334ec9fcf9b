import path from 'node:path';
import { AppError } from '../../../shared/errors';
import { writeFileAtomic } from '../../files';
import { exitCodes, flagOption, stringOption, UsageError, writeLine, type CliCommand } from '../cli-command';
import type { Disposer } from '../../lib';

/** Parses `--mode`: octal permission bits such as 644, 0644 or 0o644. */
export function parseModeOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(?:0o?)?([0-7]{3,4})$/u.exec(value);
  if (match?.[1] === undefined)
    throw new UsageError(`--mode takes octal permission bits such as 0644 or 0755, not "${value}"`);
  return Number.parseInt(match[1], 8);
}

/** Whether a stream is an interactive terminal (nothing was piped in). */
function isTerminal(stream: NodeJS.ReadableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/**
 * Aborts the read of standard input when the process is asked to stop, so that the writer removes
 * its temp file and the target stays untouched; returns the function that removes the handlers.
 */
function abortOnSignal(stdin: NodeJS.ReadableStream, target: string): Disposer<void> {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const handler = (signal: NodeJS.Signals): void => {
    const error = new AppError('cancelled', `Interrupted by ${signal}; ${target} was not changed.`, {
      path: target,
      signal,
    });
    const destroyable = stdin as { destroy?: (error: Error) => void };
    if (typeof destroyable.destroy === 'function') destroyable.destroy(error);
  };
  for (const signal of signals) process.on(signal, handler);
  return () => {
    for (const signal of signals) process.off(signal, handler);
  };
}

/** `vigil write PATH`: a crash-safe `sponge` that writes standard input to PATH atomically. */
export const writeCommand: CliCommand = {
  name: 'write',
  summary: 'Write standard input to a file atomically (a crash-safe sponge).',
  usage: 'vigil write PATH [--mode 0644] [--json]',
  help: [
    'Reads standard input to its end, streaming it into a hidden temp file beside PATH, then fsyncs it,',
    'renames it over PATH and fsyncs the directory: PATH holds its whole old content or the whole new',
    'one, whatever happens (a crash, a kill, a full disk). Input of any size is streamed, never held in',
    'memory. PATH may be the file being read: `sort -u list.txt | vigil write list.txt` is safe.',
    '',
    'An existing file keeps its permissions and a symlink is written through; missing directories are created.',
    'Note: if the producer of the input dies early, its partial output still ends with a normal end of',
    'input, which vigil write cannot tell apart; run the producer first when that matters.',
    '',
    'Options:',
    '  --mode 0644  give the file these permission bits (octal)',
    '  --json       print what was written as JSON: path, bytesWritten, created, dirsCreated',
    '',
    'Exit codes: 0 written, 1 not written (the reason is printed; PATH is unchanged), 2 wrong usage.',
  ].join('\n'),
  options: {
    mode: { type: 'string' },
    json: { type: 'boolean' },
  },
  positionals: { min: 1, max: 1, names: 'PATH' },
  async run(args, io) {
    const mode = parseModeOption(stringOption(args, 'mode'));
    const target = path.resolve(io.cwd, args.positionals[0] ?? '');
    if (isTerminal(io.stdin)) {
      throw new UsageError(
        `standard input is a terminal; pipe the content in, such as: sort names.txt | vigil write names.txt`,
      );
    }
    const stopListening = abortOnSignal(io.stdin, target);
    try {
      const result = await writeFileAtomic(target, io.stdin, { mode });
      if (flagOption(args, 'json')) writeLine(io.stdout, JSON.stringify(result));
      return exitCodes.ok;
    } finally {
      stopListening();
    }
  },
};
