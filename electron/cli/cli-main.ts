import type { CheckpointStart } from './checkpoint-process';
import { ignoreClosedPipes } from './closed-pipes';
import { entriesFor } from './command-index';
import { runCli } from './run-cli';

/**
 * Every command but `vigil hook`: the command table, then the one command's module, run with this
 * process's streams. A checkpoint's walk head start makes the command work in-process (it holds the store lock).
 */
export async function runCliProcess(argv: readonly string[], start: CheckpointStart = {}): Promise<number> {
  ignoreClosedPipes(process.stdout, process.stderr);
  const io = {
    stdout: process.stdout,
    stderr: process.stderr,
    // Made on first use: opening stdin costs every command ~2 ms, and only an interactive restore reads it.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
    mayStartCore: true,
    ...(start.serveLookup === undefined ? {} : { serveLookup: start.serveLookup }),
    ...(start.headStart === undefined ? {} : { checkpointHeadStart: start.headStart, forceLocal: true }),
  };
  return runCli(argv, io, await entriesFor(argv));
}
