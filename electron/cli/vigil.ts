import { ignoreClosedPipes } from './closed-pipes';
import { entriesFor } from './command-index';
import { runCli } from './run-cli';

/** The `vigil` executable: runs one command and exits with its code (loading only that command's modules). */
async function main(): Promise<void> {
  ignoreClosedPipes(process.stdout, process.stderr);
  const argv = process.argv.slice(2);
  const code = await runCli(argv, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() }, await entriesFor(argv));
  process.exitCode = code;
}

void main();
