import type { ParseArgsConfig } from 'node:util';
import { escapeControls } from '../../shared/text/control-characters';
import type { WalkHeadStart } from '../checkpoints';
import type { CredentialLookup } from './relay/serve-credential';

/** One option of a command, as `node:util` parseArgs takes it. */
export type CliOption = NonNullable<ParseArgsConfig['options']>[string];

/** What a command reads and writes; the real process in production, captured streams in tests. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** `--local`: work in-process even when a resident core runs (no relay). */
  readonly forceLocal?: boolean;
  /**
   * `vigil checkpoint DIR` with no resident core: the walk the executable began before loading the
   * command (under the store lock, held until the command returns); such a command works in-process.
   */
  readonly checkpointHeadStart?: WalkHeadStart;
  /**
   * A real `vigil` process (set by the executable): a command that finds no core may start a
   * background one. Commands run in-process by tests never do.
   */
  readonly mayStartCore?: boolean;
  /** serve.json as the executable read it at its start (`vigil checkpoint`), so the command does not read it again. */
  readonly serveLookup?: CredentialLookup;
  /**
   * Whether stdin is a terminal, as the executable tells without opening it (opening stdin costs a
   * command ~3 ms of CPU, and most only ask); absent, `stdin.isTTY` says (see `isTerminalInput`).
   */
  readonly isStdinTerminal?: boolean;
}

/** The parsed arguments of one command. */
export interface CliArgs {
  readonly values: Readonly<Record<string, string | boolean | ReadonlyArray<string | boolean> | undefined>>;
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
  readonly options: Readonly<Record<string, CliOption>>;
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

/**
 * Writes one line (or a block of lines) to a stream: the CLI's one way out. Every control
 * character in it but newline and tab is escaped (`escapeControls`: ESC shows as `\u001b`), so no
 * name or text reaches the terminal raw; JSON stays valid JSON with the same values. A name
 * printed inside a line escapes its own newlines too (`escapeControls(name)`), so it cannot split the line.
 */
export function writeLine(stream: NodeJS.WritableStream, line = ''): void {
  stream.write(`${escapeControls(line, { keepLineBreaks: true })}\n`);
}

/** A string option's value (the last one when given several times). */
export function stringOption(args: CliArgs, name: string): string | undefined {
  const value = args.values[name];
  if (Array.isArray(value)) {
    const last: unknown = value[value.length - 1];
    return typeof last === 'string' ? last : undefined;
  }
  return typeof value === 'string' ? value : undefined;
}

/** A repeatable string option's values (`--root A --root B`). */
export function stringListOption(args: CliArgs, name: string): readonly string[] {
  const value = args.values[name];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}

/** Whether the command's stdin is a terminal (a question may be asked there), without opening stdin when the executable can tell. */
export function isTerminalInput(io: CliIo): boolean {
  return io.isStdinTerminal ?? (io.stdin as { isTTY?: boolean }).isTTY === true;
}

/** Whether a boolean flag was given. */
export function flagOption(args: CliArgs, name: string): boolean {
  return args.values[name] === true;
}
