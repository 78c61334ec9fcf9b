import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { memoryTargets } from './memory-targets';

/** The memory store's schemas: files, entries, usage and drift, mutations and their results, changes, adoption. */

/** Which of a directory's two files: `memory` is MEMORY.md, `user` is USER.md. */
export const memoryTargetSchema = lazySchema(() => z.enum(memoryTargets));

/** The longest text one operation may carry; far above any limit, it only stops abuse. */
export const maxOperationText = 100_000;

/** How full a file is, in characters as Hermes counts them (code points), delimiters included. */
export const memoryUsageSchema = lazySchema(() =>
  z.object({
    chars: z.number().int().nonnegative(),
    limit: z.number().int().positive(),
    /** Whole percent, capped at 100. */
    percent: z.number().int().min(0).max(100),
  }),
);

/**
 * Why a file is not in the shape the memory tool writes. Hermes's rule: `not-round-trip` (its
 * stripped text differs from its entries re-joined) and `entry-over-limit`. Bytes Vigil refuses to
 * rewrite at all: `not-utf8`, `holds-nul`, `too-large` (over 1 MiB).
 */
export const driftKindSchema = lazySchema(() =>
  z.enum(['not-utf8', 'holds-nul', 'too-large', 'not-round-trip', 'entry-over-limit']),
);

/** The drift status of a file; `reasons` is empty when it is tool-shaped. */
export const driftReportSchema = lazySchema(() =>
  z.object({
    isDrifted: z.boolean(),
    reasons: z.array(z.object({ kind: driftKindSchema, message: z.string() })),
  }),
);

/** One entry-level change: `add` a new entry, `replace` the one entry containing `oldText`, `remove` it. */
export const memoryOperationSchema = lazySchema(() =>
  z.discriminatedUnion('action', [
    z.object({ action: z.literal('add'), content: z.string().max(maxOperationText) }).strict(),
    z
      .object({
        action: z.literal('replace'),
        oldText: z.string().max(maxOperationText),
        content: z.string().max(maxOperationText),
      })
      .strict(),
    z.object({ action: z.literal('remove'), oldText: z.string().max(maxOperationText) }).strict(),
  ]),
);

/** A mutation: one operation, or a batch applied all or nothing and checked against its final state. */
export const memoryMutationSchema = lazySchema(() =>
  z.discriminatedUnion('action', [
    ...memoryOperationSchema.options,
    z.object({ action: z.literal('batch'), operations: z.array(memoryOperationSchema).min(1).max(100) }).strict(),
  ]),
);

/** What one operation of a mutation did. */
export const appliedOperationSchema = lazySchema(() =>
  z.object({
    action: z.enum(['add', 'replace', 'remove']),
    outcome: z.enum(['added', 'already-present', 'replaced', 'removed', 'unchanged']),
    /** The entry as it now reads (add, replace) or as it read before it was removed. */
    entry: z.string(),
  }),
);

/**
 * What happened to the checkpoint a mutation takes before it writes: `created`, `unchanged` (the
 * directory's head already holds this state), `failed` (logged and reported; the mutation went
 * ahead), `not-needed` (nothing was written), `not-configured` (no checkpoint store in this process).
 */
export const memoryCheckpointSchema = lazySchema(() =>
  z.object({
    status: z.enum(['created', 'unchanged', 'failed', 'not-needed', 'not-configured']),
    /** The commit id of the checkpoint (created) or of the directory's head (unchanged). */
    id: z.string().optional(),
    /** Why it failed; the mutation went ahead all the same. */
    message: z.string().optional(),
  }),
);

/** A memory directory Vigil manages. */
export const memoryDirectorySchema = lazySchema(() =>
  z.object({
    /** First 16 hex of sha256 of the resolved path (the same rule as checkpoints). */
    id: z.string(),
    path: z.string(),
    label: z.string(),
    /** `vigil`: $VIGIL_HOME/memories · `hermes`: Hermes's folder, found on disk · `config`: listed in config.json. */
    source: z.enum(['vigil', 'hermes', 'config']),
    limits: z.object({ memory: z.number().int().positive(), user: z.number().int().positive() }),
    exists: z.boolean(),
    isWatched: z.boolean(),
  }),
);

/** The entry-level difference between two versions of a file. */
export const entryDiffSchema = lazySchema(() =>
  z.object({
    added: z.array(z.string()),
    removed: z.array(z.string()),
    /** Entries present in both versions. */
    kept: z.number().int().nonnegative(),
    /** The kept entries are in another order. */
    isReordered: z.boolean(),
  }),
);

/**
 * Text appended outside Vigil to the end of the file (an `echo … >> MEMORY.md`), which Hermes reads
 * as part of the last entry: that entry as it reads now, the entry it was before, and what was added.
 */
export const appendedTextSchema = lazySchema(() =>
  z.object({
    entry: z.string(),
    original: z.string(),
    appended: z.string(),
  }),
);

/** One version of a file as a change reports it. */
export const memoryVersionSchema = lazySchema(() =>
  z.object({
    exists: z.boolean(),
    /** sha256 of the bytes; null when the file does not exist. */
    sha256: z.string().nullable(),
    entries: z.array(z.string()),
  }),
);

/** An entry that reads like an instruction to the agent (the memory scan's patterns, invisible characters): what was found. */
export const flaggedEntrySchema = lazySchema(() => z.object({ entry: z.string(), what: z.string() }));

/** A change of a memory file: by Vigil (any Vigil process), or by anything else. */
export const memoryChangeSchema = lazySchema(() =>
  z.object({
    dir: z.string(),
    target: memoryTargetSchema,
    file: z.string(),
    source: z.enum(['vigil', 'external']),
    at: z.string(),
    previous: memoryVersionSchema,
    current: memoryVersionSchema,
    diff: entryDiffSchema,
    drift: driftReportSchema,
    usage: memoryUsageSchema,
    /**
     * File-system notifications folded into this change: above 1, intermediate versions may have
     * been overwritten before they could be read (superseded; `previous` is the last version
     * reported, so the diff covers the whole net change); 0 when a re-check found the change (a
     * notification was dropped) or a Vigil call read or wrote the file.
     */
    notifications: z.number().int().nonnegative(),
    /** Vigil wrote this version by restoring a checkpoint (source `vigil`), not by a memory call. */
    isRestore: z.boolean().optional(),
    /** An external change that appended text to the last entry: it can be kept as an entry of its own (`memory:keep-appended`). */
    appended: appendedTextSchema.optional(),
    /** Entries an external change added that look like instructions to the agent (what Vigil's own memory tool would refuse). */
    flagged: z.array(flaggedEntrySchema).optional(),
  }),
);

/** A file as the UI shows it. */
export const memoryFileViewSchema = lazySchema(() =>
  z.object({
    dir: z.string(),
    target: memoryTargetSchema,
    file: z.string(),
    exists: z.boolean(),
    sha256: z.string().nullable(),
    entries: z.array(z.string()),
    usage: memoryUsageSchema,
    drift: driftReportSchema,
    /** The file's text (invalid UTF-8 shown with U+FFFD), cut at 64 KiB; for showing a drifted file. */
    text: z.string(),
    isTextTruncated: z.boolean(),
    /** The newest change not made by Vigil since this core started, if any. */
    lastExternalChange: memoryChangeSchema.nullable(),
    /** Text appended outside Vigil to the last entry, which `memory:keep-appended` turns into an entry of its own; null when none is seen. */
    appended: appendedTextSchema.nullable(),
  }),
);

/**
 * A backup a change kept: `external-text` — entries written outside Vigil that a replace or remove
 * took out; `raced-write` — a program wrote the old file while Vigil replaced it; `adopted-original`
 * — the free-form file an adoption rewrote.
 */
export const preservedBackupSchema = lazySchema(() =>
  z.object({
    reason: z.enum(['external-text', 'raced-write', 'adopted-original']),
    backup: z.string(),
    /** The entries (or, for a raced write, the text's entries) that are only in the backup now. */
    entries: z.array(z.string()),
  }),
);

/** What a mutation (or an adoption) did. */
export const memoryMutationResultSchema = lazySchema(() =>
  z.object({
    dir: z.string(),
    target: memoryTargetSchema,
    file: z.string(),
    outcome: z.enum(['changed', 'unchanged']),
    /** One sentence for the agent or the user: `Entry added.`, `Entry already exists (no duplicate added).` */
    message: z.string(),
    entries: z.array(z.string()),
    usage: memoryUsageSchema,
    applied: z.array(appliedOperationSchema),
    checkpoint: memoryCheckpointSchema,
    /** Backups this change wrote so that nothing written outside Vigil is lost (usually none). */
    preserved: z.array(preservedBackupSchema),
  }),
);

/** How an adoption proposal splits free-form text into entries. */
export const adoptionStrategySchema = lazySchema(() => z.enum(['delimiter', 'blank-lines', 'headings', 'lines']));

/** One way of splitting a drifted file into entries. */
export const adoptionProposalSchema = lazySchema(() =>
  z.object({
    strategy: adoptionStrategySchema,
    entries: z.array(z.string()),
    usage: memoryUsageSchema,
    /** The entries fit the file's limit as they are. */
    fits: z.boolean(),
  }),
);

/** The proposals for adopting a file, and the version they were made from. */
export const adoptionPlanSchema = lazySchema(() =>
  z.object({
    dir: z.string(),
    target: memoryTargetSchema,
    file: z.string(),
    /** sha256 of the file the proposals were made from; `memory:adopt` refuses if the file changed since. */
    basis: z.string().nullable(),
    drift: driftReportSchema,
    proposals: z.array(adoptionProposalSchema),
    /** The proposal to show first: the first that fits, preferring delimiter, then headings, then blank lines. */
    recommended: adoptionStrategySchema.nullable(),
  }),
);
