import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { plainActorSchema } from './actor-contract';
import {
  checkpointIdSchema,
  diffDirectorySchema,
  diffPageSchema,
  diffSelectionSchema,
  fileDiffSchema,
  relativePathSchema,
} from './checkpoints-diff-schemas';
import { restorePlanSchema, restoreProgressSchema, restoreResultSchema } from './checkpoints-restore-schemas';
import { configProblemSchema } from './config-contract';
import { cutRecordSchema, droppedMarkSchema, retentionPolicySchema } from './checkpoints-live-contract';
import { defineCalls, defineEvents } from './define';

/** An absolute directory path as a caller names it (resolved by the core). */
const directorySchema = lazySchema(() => z.string().min(1).max(4096));

/** Which store a checkpoint comes from: Vigil's own, or a Hermes Agent store Vigil reads (and never writes). */
export const checkpointSourceSchema = lazySchema(() => z.enum(['vigil', 'hermes']));

/** Who caused a checkpoint. */
export const attributionSchema = lazySchema(() =>
  z.object({
    sessionId: z.string().optional(),
    turn: z.number().int().nonnegative().optional(),
    tool: z.string().optional(),
    agent: z.string().optional(),
    /** `manual`: taken by hand (`vigil checkpoint`, the UI's "Checkpoint now"), whatever its reason says. */
    origin: z.literal('manual').optional(),
    /** Who took it when no session did: the app, the CLI, Vigil on its own, or outside Vigil (a capture of an external edit). */
    actor: plainActorSchema.optional(),
  }),
);

/** Change counts of a checkpoint against its parent, stored when it was taken. */
export const checkpointStatsSchema = lazySchema(() =>
  z.object({
    files: z.number().int().nonnegative(),
    insertions: z.number().int().nonnegative(),
    deletions: z.number().int().nonnegative(),
  }),
);

/** A path a checkpoint did not store, and why. */
export const skippedPathSchema = lazySchema(() =>
  z.object({
    path: z.string(),
    reason: z.enum(['excluded', 'vcs', 'oversize', 'special', 'unreadable', 'bad-name', 'more']),
  }),
);

/** One checkpoint of one directory (a commit on `refs/vigil/<dirhash>`). */
export const checkpointEntrySchema = lazySchema(() =>
  z.object({
    id: z.string(),
    dir: z.string(),
    time: z.string(),
    reason: z.string(),
    attribution: attributionSchema,
    kind: z.enum(['checkpoint', 'pre-rollback']),
    restores: z.string().optional(),
    stats: checkpointStatsSchema,
    skipped: z.array(skippedPathSchema),
    tree: z.string(),
    parent: z.string().optional(),
    /** Where it is stored; the timeline marks Hermes's checkpoints. Diff and restore take either. */
    source: checkpointSourceSchema.default('vigil'),
    /** Pinned: retention and the size cap never drop it (absent: not pinned). */
    isPinned: z.boolean().optional(),
    /** The name a person gave it (kept beside the commit, which never changes); absent: none. */
    name: z.string().optional(),
    /** Set when the checkpoint left its timeline and waits in the recently dropped area (`restore DIR d<number>`). */
    dropped: droppedMarkSchema.optional(),
  }),
);

/** One supervised directory of the store. */
/** How a resident core finds what changed in a directory: its watcher (checked), or a walk of the tree, and why. */
export const watchStatusSchema = lazySchema(() =>
  z.object({
    mode: z.enum(['watched', 'walked']),
    reason: z.string().optional(),
    walkedPaths: z.array(z.object({ path: z.string(), reason: z.string() })),
    defects: z.number().int().nonnegative(),
    verifiedAt: z.string().optional(),
  }),
);

export const checkpointDirectorySchema = lazySchema(() =>
  z.object({
    dir: z.string(),
    dirhash: z.string(),
    head: z.string().optional(),
    count: z.number().int().nonnegative(),
    lastTouch: z.string(),
    exists: z.boolean(),
    /** Which stores hold its checkpoints (absent: Vigil's only). */
    sources: z.array(checkpointSourceSchema).optional(),
  }),
);

export { retentionPolicySchema } from './checkpoints-live-contract';

/** Calls of the checkpoint engine: the timeline, manual checkpoints, the store's health. */
export const checkpointsCalls = defineCalls({
  'checkpoints:directories': {
    summary: 'Every directory with a checkpoint timeline: head, count, last checkpoint.',
    request: lazySchema(() => z.object({}).strict()),
    response: lazySchema(() => z.object({ directories: z.array(checkpointDirectorySchema) })),
  },
  'checkpoints:list': {
    summary:
      "A directory's checkpoints from Vigil's store and Hermes Agent's, merged newest first, paged, with change stats and each one's source.",
    request: lazySchema(() =>
      z
        .object({
          dir: directorySchema,
          limit: z.number().int().min(1).max(5000).default(100),
          offset: z.number().int().nonnegative().default(0),
          /** Only this source's checkpoints (default both); `total` then counts only them. */
          source: checkpointSourceSchema.optional(),
        })
        .strict(),
    ),
    response: lazySchema(() =>
      z.object({
        dir: z.string(),
        /** How many checkpoints the timeline holds in all. */
        total: z.number().int().nonnegative(),
        entries: z.array(checkpointEntrySchema),
      }),
    ),
  },
  'checkpoints:create': {
    summary: 'Take a manual checkpoint of a directory now (nothing is taken when nothing changed).',
    request: lazySchema(() =>
      z
        .object({
          dir: directorySchema,
          reason: z.string().min(1).max(500).default('manual checkpoint'),
        })
        .strict(),
    ),
    response: lazySchema(() =>
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('created'), checkpoint: checkpointEntrySchema }),
        z.object({ kind: z.literal('unchanged'), head: z.string().optional() }),
      ]),
    ),
  },
  'checkpoints:status': {
    summary: 'Store size, object counts, retention, and per directory what the last checkpoint skipped and why.',
    request: lazySchema(() => z.object({ dir: directorySchema.optional() }).strict()),
    response: lazySchema(() =>
      z.object({
        gitdir: z.string(),
        bytes: z.number().int().nonnegative(),
        looseObjects: z.number().int().nonnegative(),
        packs: z.number().int().nonnegative(),
        retention: retentionPolicySchema,
        maxFileBytes: z.number().int().positive(),
        directories: z.array(
          checkpointDirectorySchema.extend({
            skipped: z.array(skippedPathSchema),
            pinned: z.number().int().nonnegative().optional(),
            /** What its snapshots store: a repository's tracked files and ignore rules, or Vigil's built-in names. */
            rules: z
              .object({
                kind: z.enum(['repository', 'built-in']),
                repository: z.string().optional(),
                tracked: z.number().int().nonnegative().optional(),
                /** The repositories inside it judged by their own rules: submodules, and clones its walk found. */
                nested: z
                  .array(
                    z.object({
                      at: z.string(),
                      kind: z.enum(['submodule', 'clone']),
                      tracked: z.number().int().nonnegative(),
                    }),
                  )
                  .optional(),
                /** Problems reading the rules (a damaged index, an unparsable .gitignore), each naming its file. */
                warnings: z.array(z.string()),
              })
              .optional(),
            /** Whether checkpoints of it are answered from a watcher (checked) or by walking the tree, and why. */
            watch: watchStatusSchema.optional(),
            /** How many checkpoints the retention in force would cut at the directory's next checkpoint (a lowered checkpoints.maxSnapshots): said before it happens. */
            wouldDrop: z.number().int().nonnegative().optional(),
            /** How many of its checkpoints wait in the recently dropped area, restorable (`list DIR --dropped`). */
            dropped: z.number().int().nonnegative().optional(),
          }),
        ),
        /** The latest cuts (retention, size cap, prune), newest first: nothing is dropped unrecorded. */
        cuts: z.array(cutRecordSchema).optional(),
        /** What is wrong with config.json, when it was edited into something invalid (the last valid settings stay in force). */
        configProblem: configProblemSchema.nullable().optional(),
      }),
    ),
  },
  'checkpoints:prune': {
    summary: 'Apply the retention policy now: drop old checkpoints, delete unreachable objects, pack the rest.',
    request: lazySchema(() => z.object({}).strict()),
    response: lazySchema(() =>
      z.object({
        droppedCheckpoints: z.number().int().nonnegative(),
        droppedObjects: z.number().int().nonnegative(),
        bytesBefore: z.number().int().nonnegative(),
        bytesAfter: z.number().int().nonnegative(),
      }),
    ),
  },
});

/** Events of the checkpoint engine. */
export const checkpointsEvents = defineEvents({
  'checkpoints:created': {
    summary: 'A checkpoint was taken (by any session, a restore or by hand); the timeline adds it live.',
    payload: checkpointEntrySchema,
  },
});

/** Calls of diff and restore (schemas in checkpoints-diff-schemas.ts and checkpoints-restore-schemas.ts). */
export const checkpointsRestoreCalls = defineCalls({
  'checkpoints:diff': {
    summary:
      'A page of the files that differ between a checkpoint and the directory now (or another checkpoint), with line counts.',
    request: lazySchema(() =>
      diffSelectionSchema
        .extend({
          paths: z.array(relativePathSchema).max(10_000).default([]),
          offset: z.number().int().nonnegative().default(0),
          limit: z.number().int().min(1).max(2_000).default(200),
        })
        .strict(),
    ),
    response: diffPageSchema,
  },
  'checkpoints:file-diff': {
    summary:
      "One file's unified hunks between a checkpoint and the directory now (or another checkpoint), capped with the rest counted.",
    request: lazySchema(() =>
      diffSelectionSchema
        .extend({ path: relativePathSchema, maxLines: z.number().int().min(1).max(100_000).default(2_000) })
        .strict(),
    ),
    response: fileDiffSchema,
  },
  'checkpoints:plan-restore': {
    summary:
      'What restoring a checkpoint (whole, or some files or folders) would do to each file, and why; changes nothing.',
    request: lazySchema(() =>
      z
        .object({
          dir: diffDirectorySchema,
          checkpoint: checkpointIdSchema,
          paths: z.array(relativePathSchema).max(10_000).default([]),
        })
        .strict(),
    ),
    response: restorePlanSchema,
  },
  'checkpoints:restore': {
    summary:
      'Applies a restore plan: pre-rollback snapshot, atomic writes, verification; refuses with conflict when the directory no longer matches the plan.',
    request: lazySchema(() =>
      z
        .object({
          dir: diffDirectorySchema,
          checkpoint: checkpointIdSchema,
          paths: z.array(relativePathSchema).max(10_000).default([]),
          /**
           * The plan's fingerprint, as `checkpoints:plan-restore` returned it: the restore refuses if the
           * directory moved since. Absent (the CLI's one-step restore): the plan made under the lock is applied.
           */
          fingerprint: z
            .string()
            .regex(/^[0-9a-f]{64}$/, 'the fingerprint of a plan from checkpoints:plan-restore')
            .optional(),
          /** Write the secrets files (`.env*`) the plan marks `isSecret` (the user confirmed); otherwise they are skipped. */
          allowSecrets: z.boolean().default(false),
        })
        .strict(),
    ),
    response: restoreResultSchema,
  },
});

/** Events of diff and restore. */
export const checkpointsRestoreEvents = defineEvents({
  'checkpoints:restore-progressed': {
    summary: 'A running restore moved on: snapshot taken, files written or verified so far, done.',
    payload: restoreProgressSchema,
  },
});
