import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { WalkHeadStart } from '../checkpoints';
import { resolveVigilHome, vigilPaths } from '../lib';
import { expectsCore } from './relay/expects-core';
import type { CredentialLookup } from './relay/serve-credential';

/** What the executable found before loading `vigil checkpoint`: the walk it started, and serve.json as it read it. */
export interface CheckpointStart {
  readonly headStart?: WalkHeadStart;
  /** Read here, so the command does not read it again (a relayed checkpoint reads it once, as before). */
  readonly serveLookup?: CredentialLookup;
}

/**
 * `vigil checkpoint …`'s arguments as the executable reads them before loading the command: the
 * directory (absolute) and whether `--local` was given; undefined for anything unusual (help, an
 * option it does not know), which the command then parses and reports as usual.
 */
export function checkpointArguments(
  args: readonly string[],
  cwd: string,
): { readonly dir: string; readonly isLocal: boolean } | undefined {
  const positionals: string[] = [];
  let isLocal = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (arg === '--local') isLocal = true;
    else if (arg === '--reason') index += 1;
    else if (arg === '--json' || arg.startsWith('--reason=')) continue;
    else if (arg.startsWith('-')) return undefined;
    else positionals.push(arg);
  }
  const [dir] = positionals;
  return positionals.length === 1 && dir !== undefined && dir !== ''
    ? { dir: path.resolve(cwd, dir), isLocal }
    : undefined;
}

/**
 * `vigil checkpoint DIR`: when no resident core will take the call (`--local`, or no serve.json
 * and no background core may start: `VIGIL_NO_CORE=1`, `core.autoStart: false`), the walk of a big directory starts at once, under the store lock, while the command and its core
 * load (about 0.1 s of a 50,000-file checkpoint); the command then works in-process and its engine
 * adopts the walk. A resident core's call (relayed) starts nothing here. `loadCommand` starts
 * loading the command's modules: called once the walk's threads were started (with them), or at
 * once when none will be (with none), since compiling those modules meanwhile delayed the threads' start.
 */
export async function runCheckpointProcess<T>(
  argv: readonly string[],
  context: { readonly env: NodeJS.ProcessEnv; readonly cwd: string },
  run: (start: CheckpointStart) => Promise<T>,
  loadCommand: (started: readonly Worker[]) => void = () => undefined,
): Promise<T> {
  const parsed = checkpointArguments(argv.slice(1), context.cwd);
  if (parsed === undefined) {
    loadCommand([]);
    return run({});
  }
  const paths = vigilPaths(resolveVigilHome(context.env));
  const { isExpected, serveLookup } = await expectsCore({
    home: paths.home,
    env: context.env,
    isLocal: parsed.isLocal,
  });
  // A core takes the call (serve.json's, or a background core the command starts): nothing to start here.
  if (isExpected) {
    loadCommand([]);
    return run(serveLookup === undefined ? {} : { serveLookup });
  }
  // Loaded only now: a relayed checkpoint loads none of it. The walk's workers start first, from a
  // chunk of its own: their start is the longest step before the walk, and overlaps the loading of
  // the head start and the command, which begins only once they exist.
  const started = import('./walk-worker-entry')
    .then(({ prestartWalkWorkers }) => prestartWalkWorkers({ root: paths.checkpoints, dir: parsed.dir }))
    .catch((): Worker[] => []);
  loadCommand(await started);
  const { withWalkHeadStart } = await import('./walk-head-start-entry');
  return withWalkHeadStart(
    { root: paths.checkpoints, configFile: paths.config, dir: parsed.dir, started },
    (headStart) =>
      run(headStart === undefined ? { ...(serveLookup === undefined ? {} : { serveLookup }) } : { headStart }),
  );
}
