import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { actorSchema } from './actor-contract';
import { checkpointBriefSchema } from './checkpoints-diff-schemas';

/**
 * The restore models: a plan (what would happen to each file, and why), then the outcome of
 * applying it. Restore is plan → pre-rollback snapshot → atomic writes → verification.
 */

/** What a restore does to one path. */
export const restoreActionSchema = lazySchema(() =>
  z.enum([
    /** The file exists and differs from the checkpoint: its content (and mode) is written back. */
    'restore',
    /** The file is missing now: it is written again. */
    'recreate',
    /** The file was created after the checkpoint: it is deleted (the pre-rollback snapshot keeps it). */
    'delete',
    /** Left exactly as it is; `reason` says why. */
    'skip',
  ]),
);

/** Why a restore leaves a path alone. */
export const restoreSkipReasonSchema = lazySchema(() =>
  z.enum([
    /** It already matches the checkpoint. */
    'unchanged',
    /** It matches the exclusion rules (dependencies, build output, `.env*`, …): never touched. */
    'excluded',
    /** It is larger than the size cap, so no snapshot holds it: never touched. */
    'oversize',
    /** It is on disk but no snapshot can hold it (unreadable, a socket, a bad name): never touched. */
    'unprotected',
    /** The checkpoint did not store this path (it was skipped when the checkpoint was taken): left as is. */
    'not-in-checkpoint',
    /** Something in its way cannot be moved: a parent that is a file now, or a folder holding unprotected files. */
    'blocked',
    /** A secrets file (`.env*`) from another program's store (Hermes's): written only when the user confirms. */
    'secret',
    /** The checkpoint left it out (excluded, over the size cap, unreadable) and it is gone now: nothing can bring it back. */
    'lost',
  ]),
);

/** Which outcomes make a restore incomplete: kept without zod (restore-outcomes.ts), so the CLI can print them with no schema loaded. */
export { incompleteSkipReasons, isIncompleteOutcome } from './restore-outcomes';

/** One version of a file as git stores it. */
export const fileVersionSchema = lazySchema(() =>
  z.object({
    /** `100644`, `100755` or `120000` (a symlink). */
    mode: z.string(),
    /** The blob id. */
    oid: z.string(),
  }),
);

/** One line of a restore plan. */
export const restorePlanEntrySchema = lazySchema(() =>
  z.object({
    path: z.string(),
    action: restoreActionSchema,
    /** Set for `skip`. */
    reason: restoreSkipReasonSchema.optional(),
    /** The version the checkpoint holds (absent: the checkpoint has no such file). */
    checkpoint: fileVersionSchema.optional(),
    /** The version on disk now (absent: there is no such file, or no snapshot can hold it). */
    current: fileVersionSchema.optional(),
    /**
     * The file changed since the checkpoint and no Vigil actor made its current version (a person in
     * an editor, a shell, another program): the UI warns. A version an agent's tool or terminal
     * command, the app or the CLI made is not flagged; `changedBy` names who made it.
     */
    isChangedOutsideAgents: z.boolean(),
    /** Who made the current version of a changed file, when a Vigil actor did (absent when it changed outside Vigil, or is skipped). */
    changedBy: actorSchema.optional(),
    /** When Vigil recorded that version (ISO 8601). */
    changedAt: z.string().optional(),
    /** One sentence for people: why it is skipped, what is in the way. */
    note: z.string().optional(),
    /** A secrets file (`.env*`) that only another program's store holds: written only when the restore is told to (`allowSecrets`). */
    isSecret: z.boolean().optional(),
  }),
);

/** Counts of a plan's actions. */
export const restoreCountsSchema = lazySchema(() =>
  z.object({
    restore: z.number().int().nonnegative(),
    recreate: z.number().int().nonnegative(),
    delete: z.number().int().nonnegative(),
    skip: z.number().int().nonnegative(),
  }),
);

/** Lines `from` to `to` of one version of a file (1-based, inclusive). */
export const lineRangeSchema = lazySchema(() =>
  z
    .object({ from: z.number().int().positive(), to: z.number().int().positive() })
    .strict()
    .refine((range) => range.from <= range.to, { message: 'a line range runs from a line to the same or a later one' }),
);

/** Diff rows to restore: `old`, lines of the checkpoint's version to put back; `new`, current lines to take out. */
export const lineSelectionSchema = lazySchema(() =>
  z.object({ old: z.array(lineRangeSchema).max(10_000), new: z.array(lineRangeSchema).max(10_000) }).strict(),
);

/** A restore of some lines of one file: which rows, and how many lines went back and out. */
export const lineRestoreSchema = lazySchema(() =>
  z.object({
    path: z.string(),
    selection: lineSelectionSchema,
    putBack: z.number().int().nonnegative(),
    takenOut: z.number().int().nonnegative(),
  }),
);

/** A restore plan: what applying it would do, and the fingerprint that applying must match. */
export const restorePlanSchema = lazySchema(() =>
  z.object({
    dir: z.string(),
    checkpoint: checkpointBriefSchema,
    /** The paths the restore is limited to (files or folders); empty for the whole directory. */
    paths: z.array(z.string()),
    /** Every path the restore acts on or skips; files that already match are listed only when named one by one. */
    entries: z.array(restorePlanEntrySchema),
    counts: restoreCountsSchema,
    /** Entries flagged `isChangedOutsideAgents` (changed outside Vigil). */
    changedOutsideAgents: z.number().int().nonnegative(),
    /** What the plan saw; applying refuses with `conflict` when the directory no longer matches it. */
    fingerprint: z.string(),
    /** Set when only some lines of one file are restored (its one entry is then that file). */
    lines: lineRestoreSchema.optional(),
  }),
);

/** What happened to one path when a plan was applied. */
export const restoreOutcomeSchema = lazySchema(() =>
  z.object({
    path: z.string(),
    action: restoreActionSchema,
    /** done: as planned and verified · skipped: planned as skip · conflict: it changed during the restore, left as found · failed: the system refused (message says why). */
    result: z.enum(['done', 'skipped', 'conflict', 'failed']),
    /** Why it was skipped (as the plan said, or `secret` when secrets were not allowed). */
    reason: restoreSkipReasonSchema.optional(),
    message: z.string().optional(),
  }),
);

/**
 * How a restore ended: `complete` (every file it was to change matches the checkpoint now),
 * `incomplete` (some file was skipped, blocked or failed: see the outcomes), `nothing-to-do` (the
 * directory already matched).
 */
export const restoreStatusSchema = lazySchema(() => z.enum(['complete', 'incomplete', 'nothing-to-do']));

/** The outcome of applying a plan. */
export const restoreResultSchema = lazySchema(() =>
  z.object({
    plan: restorePlanSchema,
    /** The snapshot taken just before the restore: restoring it undoes the restore. */
    preRollback: checkpointBriefSchema,
    /** One per plan entry, in plan order. */
    outcomes: z.array(restoreOutcomeSchema),
    counts: z.object({
      done: z.number().int().nonnegative(),
      skipped: z.number().int().nonnegative(),
      conflict: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
    }),
    /** Folders removed because the restore emptied them and the checkpoint did not have them. */
    removedDirectories: z.array(z.string()),
    /** Every written file was read back and matched the checkpoint's blob (and, where the scope is checked again, nothing else in it still differs). */
    isVerified: z.boolean(),
    status: restoreStatusSchema,
    /** Outcomes that make it incomplete (see `isIncompleteOutcome`). */
    incomplete: z.number().int().nonnegative(),
    /**
     * The pre-rollback snapshot's number in the directory's timeline (1 = newest) right after the
     * restore, as `vigil checkpoints restore DIR N` takes it to undo the restore; absent when it is
     * not among the newest 20 (or the restore was of some lines).
     */
    undoNumber: z.number().int().positive().optional(),
  }),
);

/** A step of a running restore, for a progress bar. */
export const restoreProgressSchema = lazySchema(() =>
  z.object({
    dir: z.string(),
    /** The checkpoint being restored (full id). */
    checkpoint: z.string(),
    phase: z.enum(['snapshot', 'write', 'verify', 'done']),
    /** Files finished in this phase, out of `total`. */
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    /** With phase `done`: how the restore ended, and how many files make it incomplete. */
    status: restoreStatusSchema.optional(),
    incomplete: z.number().int().nonnegative().optional(),
  }),
);
