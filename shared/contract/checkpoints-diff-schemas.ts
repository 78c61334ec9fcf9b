import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/**
 * The diff models of the checkpoint engine: a checkpoint against the live directory or against
 * another checkpoint, paged as a file list first and one file's hunks on demand.
 */

/** A directory as a caller names it (the core resolves it). */
export const diffDirectorySchema = lazySchema(() => z.string().min(1).max(4096));

/**
 * A checkpoint as a caller names it: a full id or an unambiguous prefix (4–40 hex digits), or, as
 * the CLI does, its number in the list (1 = newest). The core parses it and says what exists.
 */
export const checkpointIdSchema = lazySchema(() => z.string().min(1).max(64));

/** A path inside the checkpointed directory, `/`-separated (validated again by the core). */
export const relativePathSchema = lazySchema(() => z.string().min(1).max(4096));

/** How one path differs: git's A, M, D and T (a file became a symlink or the reverse). */
export const diffStatusSchema = lazySchema(() => z.enum(['added', 'modified', 'deleted', 'type-changed']));

/** What a file's content is, for display: text gets hunks, the others a note. */
export const diffContentKindSchema = lazySchema(() => z.enum(['text', 'binary', 'symlink', 'too-large']));

/** The newer side of a diff: the directory as it is now, or another checkpoint. */
export const diffTargetSchema = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('live') }).strict(),
    z.object({ kind: z.literal('checkpoint'), id: checkpointIdSchema }).strict(),
  ]),
);

/** Why checkpoints were dropped: a timeline over its count, the store over its size cap, or `vigil checkpoints prune`. */
export const cutReasonSchema = lazySchema(() => z.enum(['retention', 'size-cap', 'prune']));

/** Where a checkpoint that left its timeline is now: the recently dropped area (`restore DIR d<number>`), until `expiresAt`. */
export const droppedMarkSchema = lazySchema(() =>
  z.object({
    number: z.number().int().positive(),
    droppedAt: z.string(),
    droppedBy: cutReasonSchema,
    expiresAt: z.string(),
  }),
);

/** A checkpoint as a diff or a plan names it. */
export const checkpointBriefSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    reason: z.string(),
    time: z.string(),
    /** Set when it left its timeline and is restored from the recently dropped area. */
    dropped: droppedMarkSchema.optional(),
  }),
);

/** One changed file in a diff's file list, with its line counts. */
export const diffFileSchema = lazySchema(() =>
  z.object({
    path: z.string(),
    status: diffStatusSchema,
    /** git modes (`100644`, `100755`, `120000`); absent on the side where the file does not exist. */
    oldMode: z.string().optional(),
    newMode: z.string().optional(),
    kind: diffContentKindSchema,
    additions: z.number().int().nonnegative(),
    deletions: z.number().int().nonnegative(),
    /** Where a symbolic link points, on each side where the path is one ("link → target"). */
    linkTargets: z.object({ old: z.string().optional(), new: z.string().optional() }).optional(),
  }),
);

/** A unified-diff hunk as jsdiff gives it: lines start with "+", "-", " " or "\\". */
export const diffHunkSchema = lazySchema(() =>
  z.object({
    oldStart: z.number().int().nonnegative(),
    oldLines: z.number().int().nonnegative(),
    newStart: z.number().int().nonnegative(),
    newLines: z.number().int().nonnegative(),
    lines: z.array(z.string()),
  }),
);

/** One file's diff: hunks for text (capped, with the count of lines left out), a note for the rest. */
export const fileDiffSchema = lazySchema(() =>
  diffFileSchema.extend({
    oldSize: z.number().int().nonnegative().optional(),
    newSize: z.number().int().nonnegative().optional(),
    hunks: z.array(diffHunkSchema),
    /** Diff lines not included because of the cap ("N more lines"). */
    omittedLines: z.number().int().nonnegative(),
    /** The blob ids of the two sides (absent where the file does not exist): a line restore names the version its lines were chosen on. */
    oldOid: z.string().optional(),
    newOid: z.string().optional(),
    /**
     * An image's two versions (png, jpg, gif, webp, svg) as `data:` URLs, for a side-by-side view;
     * a side is absent where the file does not exist or is over the preview cap (2 MiB).
     */
    images: z.object({ old: z.string().optional(), new: z.string().optional() }).optional(),
  }),
);

/** A page of a diff's file list. */
export const diffPageSchema = lazySchema(() =>
  z.object({
    dir: z.string(),
    from: checkpointBriefSchema,
    to: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('live') }),
      z.object({ kind: z.literal('checkpoint'), checkpoint: checkpointBriefSchema }),
    ]),
    /** Changed files in the whole diff (not only this page). */
    totalFiles: z.number().int().nonnegative(),
    offset: z.number().int().nonnegative(),
    /** The offset of the next page, or null when this is the last one. */
    nextOffset: z.number().int().nonnegative().nullable(),
    files: z.array(diffFileSchema),
  }),
);

/** Everything that names one diff: the older checkpoint, the newer side, optional paths. */
export const diffSelectionSchema = lazySchema(() =>
  z.object({
    dir: diffDirectorySchema,
    checkpoint: checkpointIdSchema,
    against: diffTargetSchema.default({ kind: 'live' }),
  }),
);
