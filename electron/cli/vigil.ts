/**
 * The `vigil` executable: runs one command and exits with its code, loading only that command's
 * modules. `vigil hook …` runs on every tool call of an agent, so it takes a shorter path still
 * (the relay client and the agents' formats, no command machinery). `vigil checkpoint DIR` with no
 * resident core starts its walk while the command loads (cli/checkpoint-process.ts, in this file's
 * chunk: a relayed checkpoint then loads no file more than before). The build
 * groups what each path loads into few files (scripts/build/chunk-plan.ts).
 */
import { runCheckpointProcess } from './checkpoint-process';
import type { runCliProcess } from './cli-main';
import { exitOnceIdle } from './exit-once-idle';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'hook') {
    const { runHookProcess } = await import('./hook/hook-main');
    await runHookProcess(argv.slice(1));
    return;
  }
  if (argv[0] === 'checkpoint') {
    // Loaded while a checkpoint's walk starts: once its threads were started (see runCheckpointProcess).
    let loading: ReturnType<typeof loadCliMain> | undefined;
    const load = (): ReturnType<typeof loadCliMain> => (loading ??= loadCliMain());
    const context = { env: process.env, cwd: process.cwd() };
    process.exitCode = await runCheckpointProcess(
      argv,
      context,
      async (start) => (await load()).runCliProcess(argv, start),
      () => void load(),
    );
    // Its state and stat cache make a big heap that node would free page by page before exiting.
    exitOnceIdle();
    return;
  }
  const { runCliProcess } = await loadCliMain();
  process.exitCode = await runCliProcess(argv);
}

/** Every command but `vigil hook`: the command table and its runner. */
function loadCliMain(): Promise<{ readonly runCliProcess: typeof runCliProcess }> {
  return import('./cli-main');
}

void main();
