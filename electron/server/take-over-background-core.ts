import type { Logger } from '../logging';
import { stopProcess } from '../lib';
import { readLiveServeInfo, type ServeInfo } from './serve-info';

/** How long a background core may take to finish its calls and close before it is killed. */
const stopWaitMs = 10_000;

/**
 * Stops the background core that holds serve.json, so that the app or `vigil serve` takes its
 * place (they never run beside it, nor relay to it). Resolves whether it is gone; false for an
 * owner that is not a background core (the app, `vigil serve`), which is left alone.
 */
export async function takeOverBackgroundCore(owner: ServeInfo, logger: Logger): Promise<boolean> {
  if (owner.background !== true) return false;
  logger.info('stopping the background core to take its place', { pid: owner.pid });
  return stopProcess(owner.pid, stopWaitMs);
}

/** Before a resident core is built: stops this data folder's background core, if one runs. */
export async function stopBackgroundCoreOf(serveInfoPath: string, logger: Logger): Promise<void> {
  const owner = await readLiveServeInfo(serveInfoPath);
  if (owner !== undefined) await takeOverBackgroundCore(owner, logger);
}
