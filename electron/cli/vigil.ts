/**
 * The `vigil` executable: runs one command and exits with its code, loading only that command's
 * modules. `vigil hook …` runs on every tool call of an agent, so it takes a shorter path still
 * (the relay client and the agents' formats, no command machinery). The build groups what each
 * path loads into few files (scripts/build/chunk-plan.ts).
 */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'hook') {
    const { runHookProcess } = await import('./hook/hook-main');
    await runHookProcess(argv.slice(1));
    return;
  }
  const { runCliProcess } = await import('./cli-main');
  process.exitCode = await runCliProcess(argv);
}

void main();
