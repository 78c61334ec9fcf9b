import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { defineCalls, defineEvents } from './define';

/** What is wrong with config.json: the field by name, what to do, and since when the last valid configuration stays in force. */
export const configProblemSchema = lazySchema(() =>
  z.object({
    /** The field, as `section.key` (`checkpoints.maxSnapshots`), or `(root)` when the file is not JSON. */
    field: z.string(),
    message: z.string(),
    /** When the invalid version was first seen (ISO 8601). */
    at: z.string(),
  }),
);

/** The configuration in force, and whether config.json currently says something else that is invalid. */
export const configStateSchema = lazySchema(() =>
  z.object({
    /** `$VIGIL_HOME/config.json`. */
    file: z.string(),
    /** The `checkpoints` section in force (its defaults when the file or section is missing). */
    checkpoints: z.object({
      maxSnapshots: z.number().int().positive(),
      maxStoreMiB: z.number().positive(),
      maxFileMiB: z.number().positive(),
      /** Days dropped checkpoints stay restorable (absent in older cores: 7). */
      keepDroppedDays: z.number().nonnegative().optional(),
    }),
    /** Sections whose changes take effect only when Vigil restarts (named so nobody expects otherwise). */
    appliedAtRestart: z.array(z.string()),
    /** Null when config.json is valid; else what is wrong (the last valid configuration stays in force). */
    problem: configProblemSchema.nullable(),
  }),
);

/** Calls about $VIGIL_HOME/config.json. */
export const configCalls = defineCalls({
  'config:read': {
    summary: 'The configuration in force and, when config.json was edited into something invalid, the field at fault.',
    request: lazySchema(() => z.object({}).strict()),
    response: configStateSchema,
  },
});

/** Events about $VIGIL_HOME/config.json. */
export const configEvents = defineEvents({
  'config:changed': {
    summary:
      'config.json changed: a valid edit is in force at once; an invalid one is reported with its field, and the last valid configuration stays.',
    payload: configStateSchema,
  },
});

/** A problem with config.json. */
export type ConfigProblem = z.infer<typeof configProblemSchema>;
/** The configuration in force. */
export type ConfigState = z.infer<typeof configStateSchema>;
