import type { CheckpointStart } from './checkpoint-process';
import { ignoreClosedPipes } from './closed-pipes';
import { runCli, type CliEntry } from './run-cli';

/**
 * Runs the CLI with this process's streams on the entries of the command table it needs (the
 * executable's entries find them: cli-main.ts by the command index, cli/relay-entry.ts for the
 * commands it runs itself). A checkpoint's walk head start makes the command work in-process (it holds the store lock).
 */
export function runCliWithEntries(
  argv: readonly string[],
  entries: readonly CliEntry[],
  start: CheckpointStart = {},
): Promise<number> {
  ignoreClosedPipes(process.stdout, process.stderr);
  const io = {
    stdout: process.stdout,
    stderr: process.stderr,
    // Made on first use: opening stdin costs every command ~2 ms, and only an interactive restore reads it.
    get stdin() {
      return process.stdin;
    },
    // What process.stdin.isTTY would say (both ask libuv what fd 0 is), without opening it.
    get isStdinTerminal() {
      return process.getBuiltinModule('node:tty').isatty(0);
    },
    env: process.env,
    cwd: process.cwd(),
    mayStartCore: true,
    ...(start.serveLookup === undefined ? {} : { serveLookup: start.serveLookup }),
    ...(start.headStart === undefined ? {} : { checkpointHeadStart: start.headStart, forceLocal: true }),
  };
  return runCli(argv, io, entries);
}
