import type { ParseArgsOptionDescriptor } from 'node:util';

/** What a command reads and writes; the real process in production, captured streams in tests. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** The parsed arguments of one command. */
export interface CliArgs {
  readonly values: Readonly<Record<string, string | boolean | readonly string[] | undefined>>;
  readonly positionals: readonly string[];
}

/** One command (`vigil serve`, `vigil checkpoints list`). */
export interface CliCommand {
  readonly name: string;
  /** One line for `vigil --help`. */
  readonly summary: string;
  /** The synopsis, such as `vigil serve [--port N] [--host H] [--allow-remote]`. */
  readonly usage: string;
  /** Paragraphs shown by `--help` after the synopsis: options, examples, exit codes. */
  readonly help: string;
  readonly options: Readonly<Record<string, ParseArgsOptionDescriptor>>;
  /** How many positional arguments it takes. */
  readonly positionals: { readonly min: number; readonly max: number; readonly names: string };
  /** Runs the command; resolves to the exit code. */
  run(args: CliArgs, io: CliIo): Promise<number>;
}

/** A command with subcommands (`vigil checkpoints list|diff|restore`). */
export interface CliCommandGroup {
  readonly name: string;
  readonly summary: string;
  readonly subcommands: readonly CliCommand[];
}

/** A wrong invocation: exit code 2 and a message that names what was wrong. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The exit codes every command uses. */
export const exitCodes = { ok: 0, failed: 1, usage: 2 } as const;

/** Writes one line to a stream. */
export function writeLine(stream: NodeJS.WritableStream, line = ''): void {
  stream.write(`${line}\n`);
}
