import { ignoreClosedPipes } from './closed-pipes';
import { entriesFor } from './command-index';
import { runCli } from './run-cli';

/** Every command but `vigil hook`: the command table, then the one command's module, run with this process's streams. */
export async function runCliProcess(argv: readonly string[]): Promise<number> {
  ignoreClosedPipes(process.stdout, process.stderr);
  return runCli(
    argv,
    { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() },
    await entriesFor(argv),
  );
}
