import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { actorSchema } from './actor-contract';
import { sessionIdSchema } from './sessions-schemas';

/**
 * The schemas of turn undo in the contract: a rewind as recorded, and its plan and outcome (design §4).
 * Re-exported by sessions-contract.ts, where importers find them.
 */

/** How much a rewind undoes (design §4). */
export const rewindModeSchema = lazySchema(() => z.enum(['code', 'conversation', 'both']));

/** A rewind as recorded in the log. */
export const rewindRecordSchema = lazySchema(() =>
  z.object({
    at: z.string(),
    toTurn: z.number().int().positive(),
    mode: rewindModeSchema,
    rewoundTurns: z.array(z.number().int().positive()),
    restoredDirectories: z.array(z.string()),
  }),
);

/** What a restore would do to one file. */
export const rewindFileActionSchema = lazySchema(() =>
  z.object({
    path: z.string(),
    action: z.enum(['restore', 'recreate', 'delete', 'skip']),
    reason: z.string().optional(),
    /** Changed outside Vigil since the checkpoint: restoring loses that edit (a pre-rollback snapshot keeps it). */
    isChangedOutside: z.boolean(),
    /** Who made its current version, when a Vigil actor did. */
    changedBy: actorSchema.optional(),
    /** When that version was made (ISO 8601), when Vigil recorded it. */
    changedAt: z.string().optional(),
    /**
     * Another actor (another session, a person in the app or the CLI, a program outside Vigil) made
     * its current version after the turn: the rewind keeps theirs unless the request names the file
     * in `overwrite`.
     */
    isOthers: z.boolean().optional(),
  }),
);

/** The code part of a rewind for one directory: back to its first checkpoint since the target turn. */
export const rewindDirectoryPlanSchema = lazySchema(() =>
  z.object({
    directory: z.string(),
    checkpointId: z.string(),
    /** The turn in which that checkpoint was taken. */
    checkpointTurn: z.number().int().positive(),
    files: z.array(rewindFileActionSchema),
    problems: z.array(z.string()),
  }),
);

/** What a rewind will change, shown before it happens. */
export const rewindPlanSchema = lazySchema(() =>
  z.object({
    /** Identifies this exact plan; pass it to `sessions:rewind` to refuse if anything changed since. */
    planId: z.string(),
    sessionId: sessionIdSchema,
    toTurn: z.number().int().positive(),
    mode: rewindModeSchema,
    /** Turns that will be marked rewound (conversation and both). */
    turns: z.array(z.number().int().positive()),
    /** Directories that will be restored (code and both). */
    directories: z.array(rewindDirectoryPlanSchema),
    /** Things the rewind cannot undo (a failed checkpoint, a directory without one), in words. */
    problems: z.array(z.string()),
  }),
);

/** What a rewind did. */
export const rewindOutcomeSchema = lazySchema(() =>
  z.object({
    plan: rewindPlanSchema,
    rewoundTurns: z.array(z.number().int().positive()),
    restored: z.array(
      z.object({
        directory: z.string(),
        /** The snapshot taken before restoring: restoring it undoes the rewind. */
        preRollbackCheckpointId: z.string().optional(),
        filesChanged: z.number().int().nonnegative(),
      }),
    ),
  }),
);
