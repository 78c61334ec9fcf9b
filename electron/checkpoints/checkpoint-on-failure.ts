import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';
import type { ConfigFile } from '../config';
import { checkpointConfigSchema } from './checkpoint-config';

/** What a change whose checkpoint failed becomes: held for a person (`ask`), or run without one (`allow`). */
export type CheckpointOnFailure = 'ask' | 'allow';

/** The one key of the `hooks` section `checkpoints.onFailure` generalises (the hooks' own schema owns the rest). */
const olderKeySchema = lazySchema(() => z.looseObject({ onFailure: z.enum(['ask', 'allow']).optional() }));

/**
 * `checkpoints.onFailure` from config.json, else the older `hooks.onFailure` (kept as its alias),
 * else `ask`. A config.json that cannot be read or parsed asks: a change is never let go on
 * unprotected by a guess.
 */
export async function readCheckpointOnFailure(config: Pick<ConfigFile, 'section'>): Promise<CheckpointOnFailure> {
  try {
    const [checkpoints, hooks] = await Promise.all([
      config.section('checkpoints', checkpointConfigSchema),
      config.section('hooks', olderKeySchema),
    ]);
    return checkpoints.onFailure ?? hooks.onFailure ?? 'ask';
  } catch {
    return 'ask';
  }
}
