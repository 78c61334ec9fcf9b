/**
 * The `vigil` executable: runs one command and exits with its code. `vigil hook …` runs on every
 * tool call of an agent, so it takes a short path that loads only what it needs (the relay client
 * and the agents' formats); every other command loads the command table.
 */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'hook') {
    const { runHookProcess } = await import('./hook/hook-main');
    await runHookProcess(argv.slice(1));
    return;
  }
  const [{ ignoreClosedPipes }, { commandTable }, { runCli }] = await Promise.all([import('./closed-pipes'), import('./command-table'), import('./run-cli')]);
  ignoreClosedPipes(process.stdout, process.stderr);
  const code = await runCli(argv, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() }, commandTable);
  process.exitCode = code;
}

void main();
