import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { readCheckpointSettings } from '../electron/checkpoints';
import { cli } from './vigil-process';

/**
 * The environment of `vigil` processes on a VIGIL_HOME under `base` with no config.json, so at the
 * default retention (the run's own VIGIL_HOME raises checkpoints.maxSnapshots out of the way), a
 * background core allowed. The caller stops that core (`vigil core stop` with this environment).
 */
export function defaultRetentionEnv(base: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const home = path.join(base, 'home-default-retention');
  mkdirSync(home, { recursive: true });
  return { ...env, VIGIL_HOME: home, VIGIL_NO_CORE: '0' };
}

/**
 * Fills `dir`'s timeline one past the retention limit the core reads from `env`'s VIGIL_HOME, with
 * untimed `vigil checkpoint DIR` calls (the first starts the background core), each after
 * `change(run)`: every later checkpoint of `dir` also cuts the oldest, as it does for a user past
 * their first checkpoints.maxSnapshots. Resolves to that limit.
 */
export async function fillToRetentionLimit(
  env: NodeJS.ProcessEnv,
  dir: string,
  change: (run: number) => void,
): Promise<number> {
  const home = env['VIGIL_HOME'];
  if (home === undefined) throw new Error('no VIGIL_HOME to read the retention from');
  const { maxSnapshots } = (await readCheckpointSettings(path.join(home, 'config.json'))).retention;
  for (let run = 0; run <= maxSnapshots; run += 1) {
    change(run);
    execFileSync(process.execPath, [cli, 'checkpoint', dir], { env, stdio: 'ignore' });
  }
  return maxSnapshots;
}
