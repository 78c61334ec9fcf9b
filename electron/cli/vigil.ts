import { ignoreClosedPipes } from './closed-pipes';
import { commandTable } from './command-table';
import { runCli } from './run-cli';

/** The `vigil` executable: runs one command and exits with its code. */
async function main(): Promise<void> {
  ignoreClosedPipes(process.stdout, process.stderr);
  const code = await runCli(
    process.argv.slice(2),
    { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() },
    commandTable,
  );
  process.exitCode = code;
}

void main();
