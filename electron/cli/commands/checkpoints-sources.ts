import type { CheckpointSource } from '../../checkpoints/checkpoint-types';
import { CheckpointService } from '../../checkpoints/checkpoint-service';
import { vigilPaths, type VigilPaths } from '../../core/vigil-home';
import { HermesCheckpoints } from '../../hermes/hermes-checkpoints';
import { mergeHermesCheckpoints, type MergedCheckpointApi } from '../../hermes/merged-checkpoints';
import type { Logger } from '../../logging/logger';
import { stringOption, UsageError, type CliArgs, type CliIo } from '../cli-command';
import { cliHome, cliLogger } from '../cli-context';
import { readCheckpointSettings } from '../../checkpoints/checkpoint-config';

/** What a one-shot checkpoints command works with. */
export interface CheckpointsContext {
  /** `$VIGIL_HOME/checkpoints`. */
  readonly root: string;
  /** Every path under `$VIGIL_HOME`. */
  readonly paths: VigilPaths;
  readonly logger: Logger;
}

/**
 * Runs `task` with the timeline every `vigil checkpoints` command reads: a one-shot engine (no
 * watcher) with Hermes Agent's checkpoints merged in (found through `HERMES_HOME`, else
 * `~/.hermes`, read-only), closing both afterwards.
 */
export async function withMergedCheckpoints<T>(io: CliIo, task: (checkpoints: MergedCheckpointApi, context: CheckpointsContext) => Promise<T>): Promise<T> {
  const home = cliHome(io);
  const logger = cliLogger(home, io);
  const paths = vigilPaths(home);
  const root = paths.checkpoints;
  const engine = new CheckpointService({ root, logger, ...(await readCheckpointSettings(paths.config)) });
  const hermes = new HermesCheckpoints({ env: io.env, logger });
  try {
    return await task(mergeHermesCheckpoints(engine, hermes, { env: io.env }), { root, paths, logger });
  } finally {
    await hermes.dispose();
    await engine.dispose();
    await logger.flush();
  }
}

/** `--source vigil|hermes`, or undefined for both. */
export function sourceOption(args: CliArgs): CheckpointSource | undefined {
  const value = stringOption(args, 'source');
  if (value === undefined || value === 'vigil' || value === 'hermes') return value;
  throw new UsageError(`--source takes vigil or hermes, not "${value}"`);
}
