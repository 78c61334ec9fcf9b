import { parseArgs } from 'node:util';
import { isAppError } from '../../shared/errors';
import { unexpectedMessage } from '../../shared/result';
import { vigilVersion } from '../lib';
import { exitCodes, UsageError, writeLine, type CliCommand, type CliCommandGroup, type CliIo } from './cli-command';

/** An entry of the command table: a command or a group of subcommands. */
export type CliEntry = CliCommand | CliCommandGroup;

function isGroup(entry: CliEntry): entry is CliCommandGroup {
  return 'subcommands' in entry;
}

function globalHelp(entries: readonly CliEntry[]): string {
  const lines: Array<readonly [string, string]> = [];
  for (const entry of entries) {
    if (isGroup(entry)) {
      for (const sub of entry.subcommands) lines.push([`${entry.name} ${sub.name}`, sub.summary] as const);
    } else {
      lines.push([entry.name, entry.summary] as const);
    }
  }
  const width = Math.max(...lines.map(([name]) => name.length));
  return [
    `vigil ${vigilVersion}: supervise AI coding agents (atomic writes, checkpoints, guarded memory).`,
    '',
    'Usage: vigil <command> [options]',
    '',
    'Commands:',
    ...lines.map(([name, summary]) => `  ${name.padEnd(width)}  ${summary}`),
    '',
    'Options for every command: --help (-h) shows its options; vigil --version prints the version.',
    '--local works in-process even while the app or "vigil serve" runs (otherwise commands that read or',
    'change the store, memory or sessions go to that running Vigil, so its UI shows the work at once).',
    'VIGIL_HOME selects the data folder (default ~/.vigil).',
    'Exit codes: 0 done, 1 failed (the error is printed), 2 wrong usage.',
  ].join('\n');
}

function commandHelp(command: CliCommand): string {
  return [`Usage: ${command.usage}`, '', command.summary, '', command.help].join('\n').trimEnd();
}

function describeParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option "${unknown[1]}"`;
  const missing = /Option '([^']+)' argument missing/.exec(message);
  if (missing) return `option "${missing[1]?.split(',')[0]?.trim()}" needs a value`;
  return message.split('.')[0] ?? message;
}

async function runCommand(command: CliCommand, args: readonly string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(describeParseError(error));
  }
  if (parsed.values['help'] === true) {
    writeLine(io.stdout, commandHelp(command));
    return exitCodes.ok;
  }
  const { min, max, names } = command.positionals;
  if (parsed.positionals.length < min) throw new UsageError(`missing ${names}`);
  if (parsed.positionals.length > max) {
    throw new UsageError(`unexpected argument "${parsed.positionals[max]}"`);
  }
  return command.run({ values: parsed.values, positionals: parsed.positionals }, io);
}

/** `--local` anywhere before a `--`: a global flag every command takes, removed before the command's own options are parsed. */
function takeLocalFlag(argv: readonly string[]): { readonly args: readonly string[]; readonly isLocal: boolean } {
  const end = argv.indexOf('--');
  const head = end < 0 ? argv : argv.slice(0, end);
  const tail = end < 0 ? [] : argv.slice(end);
  const args = head.filter((arg) => arg !== '--local');
  return { args: [...args, ...tail], isLocal: args.length !== head.length };
}

/**
 * Runs the CLI: finds the command (and subcommand), parses its options strictly, and maps the
 * outcome to an exit code — 0 done, 1 failed (an AppError, printed with its code), 2 wrong usage
 * (an unknown command or option, named).
 */
export async function runCli(argv: readonly string[], cliIo: CliIo, entries: readonly CliEntry[]): Promise<number> {
  const { args: given, isLocal } = takeLocalFlag(argv);
  // Copied by descriptors, not spread: a spread would open stdin, which the executable opens only on first use.
  const io: CliIo = isLocal
    ? Object.defineProperties<CliIo>({} as CliIo, {
        ...Object.getOwnPropertyDescriptors(cliIo),
        forceLocal: { value: true, enumerable: true },
      })
    : cliIo;
  const [first, second, ...rest] = given;
  if (first === undefined) {
    writeLine(io.stderr, globalHelp(entries));
    return exitCodes.usage;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    writeLine(io.stdout, globalHelp(entries));
    return exitCodes.ok;
  }
  if (first === '--version' || first === '-v') {
    writeLine(io.stdout, vigilVersion);
    return exitCodes.ok;
  }
  const entry = entries.find((candidate) => candidate.name === first);
  let commandName = first;
  try {
    if (entry === undefined) {
      throw new UsageError(first.startsWith('-') ? `unknown option "${first}"` : `unknown command "${first}"`);
    }
    if (isGroup(entry)) {
      const names = entry.subcommands.map((sub) => sub.name).join('|');
      if (second === undefined || second === '--help' || second === '-h') {
        const out = second === undefined ? io.stderr : io.stdout;
        writeLine(out, `Usage: vigil ${entry.name} ${names} …\n\n${entry.summary}\n`);
        for (const sub of entry.subcommands) writeLine(out, `  ${sub.usage}\n      ${sub.summary}`);
        return second === undefined ? exitCodes.usage : exitCodes.ok;
      }
      const sub = entry.subcommands.find((candidate) => candidate.name === second);
      if (sub === undefined) throw new UsageError(`unknown subcommand "${second}" (expected ${names})`);
      commandName = `${entry.name} ${sub.name}`;
      return await runCommand(sub, rest, io);
    }
    return await runCommand(entry, given.slice(1), io);
  } catch (error) {
    if (error instanceof UsageError) {
      writeLine(io.stderr, `vigil ${commandName}: ${error.message}`);
      writeLine(io.stderr, `Run "vigil ${entry === undefined ? '' : `${commandName} `}--help" to see the usage.`);
      return exitCodes.usage;
    }
    if (isAppError(error)) {
      writeLine(io.stderr, `vigil ${commandName}: ${error.message}`);
      return exitCodes.failed;
    }
    writeLine(io.stderr, `vigil ${commandName}: ${unexpectedMessage}`);
    writeLine(io.stderr, error instanceof Error ? (error.stack ?? error.message) : String(error));
    return exitCodes.failed;
  }
}
