/**
 * The `vigil` executable: runs one command and exits with its code, loading only that command's
 * modules. `vigil hook …` runs on every tool call of an agent, so it takes a shorter path still
 * (the relay client and the agents' formats, no command machinery).
 */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'hook') {
    const { runHookProcess } = await import('./hook/hook-main');
    await runHookProcess(argv.slice(1));
    return;
  }
  const [{ ignoreClosedPipes }, { entriesFor }, { runCli }] = await Promise.all([
    import('./closed-pipes'),
    import('./command-index'),
    import('./run-cli'),
  ]);
  ignoreClosedPipes(process.stdout, process.stderr);
  const code = await runCli(
    argv,
    { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() },
    await entriesFor(argv),
  );
  process.exitCode = code;
}

void main();
