import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';
import { readConfigSection } from '../config';
import type { CheckpointServiceOptions } from './checkpoint-api';
import { defaultKeepDroppedDays } from './maintenance/dropped-area';
import { defaultMaxFileBytes, defaultRetention } from './maintenance/retention';

const mebibyte = 1024 * 1024;

/** The `checkpoints` section of $VIGIL_HOME/config.json. */
export const checkpointConfigSchema = lazySchema(() =>
  z
    .object({
      /** Checkpoints kept per directory; older ones are dropped and their objects collected. */
      maxSnapshots: z.number().int().min(1).max(100_000).default(defaultRetention.maxSnapshots),
      /** The whole store's size cap in MiB; the oldest checkpoints go first, never a directory's newest. */
      maxStoreMiB: z
        .number()
        .min(1)
        .max(1_048_576)
        .default(defaultRetention.maxTotalBytes / mebibyte),
      /** Files larger than this many MiB are skipped, and the checkpoint says so. */
      maxFileMiB: z
        .number()
        .min(0.001)
        .max(4_096)
        .default(defaultMaxFileBytes / mebibyte),
      /** Days checkpoints cut by retention or the size cap stay in the recently dropped area (0: until the next look at the store). */
      keepDroppedDays: z.number().min(0).max(3_650).default(defaultKeepDroppedDays),
      /**
       * A change whose checkpoint failed (a full disk, a store lock held past its wait, a broken
       * store), whatever the door (MCP, /agent, `vigil tool`, an agent's hooks): `ask` (the default)
       * holds it for a person, refused where nobody can be asked; `allow` lets it run without one,
       * and its result says so. Unset: the older `hooks.onFailure`, then `ask`.
       */
      onFailure: z.enum(['ask', 'allow']).optional(),
    })
    .strict(),
);

/** The checkpoint engine's options that come from config.json. */
export type CheckpointSettings = Required<Pick<CheckpointServiceOptions, 'maxFileBytes'>> & {
  readonly retention: {
    readonly maxSnapshots: number;
    readonly maxTotalBytes: number;
    readonly keepDroppedDays: number;
  };
};

/**
 * Reads the `checkpoints` section: defaults when config.json or the section is missing, an
 * `invalid_request` naming the field when a value is wrong (the engine never runs on a guess).
 */
export async function readCheckpointSettings(configPath: string): Promise<CheckpointSettings> {
  return toCheckpointSettings(await readConfigSection(configPath, 'checkpoints', checkpointConfigSchema));
}

/** The engine's settings from a parsed `checkpoints` section. */
export function toCheckpointSettings(config: z.output<typeof checkpointConfigSchema>): CheckpointSettings {
  return {
    retention: {
      maxSnapshots: config.maxSnapshots,
      maxTotalBytes: Math.round(config.maxStoreMiB * mebibyte),
      keepDroppedDays: config.keepDroppedDays,
    },
    maxFileBytes: Math.round(config.maxFileMiB * mebibyte),
  };
}
