import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import {
  checkpointBriefSchema,
  checkpointIdSchema,
  diffDirectorySchema,
  diffHunkSchema,
  diffSelectionSchema,
  fileDiffSchema,
  relativePathSchema,
} from './checkpoints-diff-schemas';
import {
  fileVersionSchema,
  lineRangeSchema,
  lineSelectionSchema,
  restoreResultSchema,
} from './checkpoints-restore-schemas';
import { checkpointEntrySchema } from './checkpoints-contract';
import { defineCalls } from './define';

/**
 * Restore like a power tool: restoring some lines of a file (plan, then apply), the history of one
 * file across every session, and searching the past for when a text appeared or disappeared.
 */

/**
 * Which lines: `range`, lines of the checkpoint's version (the CLI's `--lines A-B`: the current
 * lines that stand in for them go); `ranges`, several such ranges at once (lines picked in a
 * comparison of two checkpoints); `rows`, the diff rows a person picked against the live file.
 */
export const lineChoiceSchema = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('range'), range: lineRangeSchema }).strict(),
    z.object({ kind: z.literal('ranges'), ranges: z.array(lineRangeSchema).min(1).max(10_000) }).strict(),
    z.object({ kind: z.literal('rows'), selection: lineSelectionSchema }).strict(),
  ]),
);

/** What a line restore is asked for. */
const lineRequestSchema = lazySchema(() =>
  z
    .object({
      dir: diffDirectorySchema,
      checkpoint: checkpointIdSchema,
      path: relativePathSchema,
      lines: lineChoiceSchema,
      /** The blob id of the current version the rows were picked on: refused (`conflict`) when the file is another version now. */
      basis: z
        .string()
        .regex(/^[0-9a-f]{40}$/, 'a blob id (40 hex digits)')
        .optional(),
    })
    .strict(),
);

/** What restoring some lines of a file would do: the rows, the counts, and a preview of the file's change. */
export const linePlanSchema = lazySchema(() =>
  z.object({
    dir: z.string(),
    checkpoint: checkpointBriefSchema,
    path: z.string(),
    /** The rows restored, in both versions' line numbers (rows that are the same on both sides left out). */
    selection: lineSelectionSchema,
    /** Lines of the checkpoint put back, and current lines taken out. */
    putBack: z.number().int().nonnegative(),
    takenOut: z.number().int().nonnegative(),
    /** How many lines the checkpoint's version and the current one have. */
    checkpointLines: z.number().int().nonnegative(),
    currentLines: z.number().int().nonnegative(),
    /** The version on disk now, and the version that will be written. */
    current: fileVersionSchema,
    result: fileVersionSchema,
    /** How the file changes: hunks from the current version to the result. */
    hunks: z.array(diffHunkSchema),
    /** The file changed outside any agent since the checkpoint (the restore point keeps that version). */
    isChangedOutsideAgents: z.boolean(),
    /** What applying must find: refused (`conflict`) when the file moved since. */
    fingerprint: z.string(),
  }),
);

/** Who and what a checkpoint in a file's history or a search answer stands for. */
export const historyCheckpointSchema = lazySchema(() =>
  z.object({
    checkpoint: checkpointEntrySchema,
    /** Its number in the timeline when answered (1 = newest), as `vigil checkpoints list` numbers it. */
    number: z.number().int().positive(),
    /** The first user message of the turn it was taken for, when the session recorded one. */
    turnMessage: z.string().optional(),
  }),
);

/** One version of a file in its history: a checkpoint after which the file changed. */
export const fileVersionEntrySchema = lazySchema(() =>
  historyCheckpointSchema.extend({
    /** The file as the checkpoint holds it (absent: it did not exist then). */
    version: fileVersionSchema.optional(),
    /** What it became by the next checkpoint, or in the directory now (absent: deleted). */
    next: fileVersionSchema.optional(),
    /** Where `next` was seen: the next checkpoint's id, or `live` for the directory now. */
    nextCheckpoint: z.string(),
    status: z.enum(['added', 'modified', 'deleted', 'type-changed']),
  }),
);

/** One place where the count of a text in a file changed. */
export const searchHitSchema = lazySchema(() =>
  historyCheckpointSchema.extend({
    path: z.string(),
    /** How often the text occurs in the file as the checkpoint holds it, and by the next checkpoint (or now). */
    before: z.number().int().nonnegative(),
    after: z.number().int().nonnegative(),
    nextCheckpoint: z.string(),
  }),
);

/** Calls of line restore, file history and search. */
export const checkpointsHistoryCalls = defineCalls({
  'checkpoints:file-diffs': {
    summary:
      'Several files\u2019 hunks of one comparison at once (a stacked view), each capped; files that did not change are listed apart.',
    request: lazySchema(() =>
      diffSelectionSchema
        .extend({
          paths: z.array(relativePathSchema).min(1).max(200),
          maxLines: z.number().int().min(1).max(20_000).default(2_000),
        })
        .strict(),
    ),
    response: lazySchema(() => z.object({ files: z.array(fileDiffSchema), unchanged: z.array(z.string()) })),
  },
  'checkpoints:plan-restore-lines': {
    summary: 'What restoring some lines of a file to a checkpoint would do (a preview of the change); changes nothing.',
    request: lineRequestSchema,
    response: linePlanSchema,
  },
  'checkpoints:restore-lines': {
    summary:
      'Restores some lines of a file to a checkpoint: pre-rollback snapshot, one atomic write, verified; undone like any restore.',
    request: lazySchema(() =>
      lineRequestSchema
        .extend({
          fingerprint: z
            .string()
            .regex(/^[0-9a-f]{64}$/, 'the fingerprint of a plan from checkpoints:plan-restore-lines')
            .optional(),
        })
        .strict(),
    ),
    response: restoreResultSchema,
  },
  'checkpoints:file-log': {
    summary:
      "A file's history: every checkpoint, across sessions and stores, after which the file changed, newest first, with who and the turn's message.",
    request: lazySchema(() =>
      z.object({ dir: diffDirectorySchema, path: relativePathSchema, includeLive: z.boolean().default(true) }).strict(),
    ),
    response: lazySchema(() =>
      z.object({
        dir: z.string(),
        path: z.string(),
        checkpoints: z.number().int().nonnegative(),
        entries: z.array(fileVersionEntrySchema),
      }),
    ),
  },
  'checkpoints:search': {
    summary:
      'Checkpoints after which the count of a text in a file changed (what `git log -S` answers), newest first, with the file and who.',
    request: lazySchema(() =>
      z
        .object({
          dir: diffDirectorySchema,
          text: z.string().min(1).max(1_000),
          includeLive: z.boolean().default(true),
          limit: z.number().int().min(1).max(10_000).default(500),
        })
        .strict(),
    ),
    response: lazySchema(() =>
      z.object({
        dir: z.string(),
        text: z.string(),
        checkpoints: z.number().int().nonnegative(),
        hits: z.array(searchHitSchema),
        /** More hits exist than `limit` returned. */
        isTruncated: z.boolean(),
      }),
    ),
  },
});

/** A line restore plan. */
export type LinePlan = z.infer<typeof linePlanSchema>;
/** One version in a file's history. */
export type FileVersionEntry = z.infer<typeof fileVersionEntrySchema>;
/** One search hit. */
export type SearchHit = z.infer<typeof searchHitSchema>;
/** Rows of a line restore. */
export type LineSelectionData = z.infer<typeof lineSelectionSchema>;
