import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { plainActorSchema } from './actor-contract';
import { checkpointIdSchema, cutReasonSchema } from './checkpoints-diff-schemas';

export { cutReasonSchema, droppedMarkSchema } from './checkpoints-diff-schemas';
import { defineCalls, defineEvents } from './define';

/** The retention policy in force. */
export const retentionPolicySchema = lazySchema(() =>
  z.object({
    maxSnapshots: z.number().int().positive(),
    maxTotalBytes: z.number().int().positive(),
    /** Days dropped checkpoints stay restorable in the recently dropped area (absent: 7). */
    keepDroppedDays: z.number().nonnegative().optional(),
  }),
);

/** One cut: how many checkpoints of which directory were dropped, when and why. Nothing is dropped without one. */
export const cutRecordSchema = lazySchema(() =>
  z.object({
    at: z.string(),
    dir: z.string(),
    dirhash: z.string(),
    dropped: z.number().int().positive(),
    /** How many checkpoints the timeline kept. */
    kept: z.number().int().nonnegative(),
    reason: cutReasonSchema,
    /** The retention in force when it happened. */
    retention: retentionPolicySchema,
    /** One sentence for people. */
    message: z.string(),
    /** Who dropped them: Vigil's own retention and size cap, or whoever ran the prune (the app or the CLI). Absent in older records: Vigil. */
    actor: plainActorSchema.optional(),
  }),
);

/** One checkpoint of the recently dropped area (`vigil checkpoints list DIR --dropped`). */
export const droppedCheckpointSchema = lazySchema(() =>
  z.object({
    /** `d1` = the newest dropped checkpoint; what `restore DIR dN` takes. */
    number: z.number().int().positive(),
    id: z.string(),
    /** When the checkpoint was taken, and its reason. */
    time: z.string(),
    reason: z.string(),
    droppedAt: z.string(),
    droppedBy: cutReasonSchema,
    /** When it leaves the store (or left it, when `expiredAt` is set). */
    expiresAt: z.string(),
    /** Set once it left the store (its content is gone): because its days were up, or for the size cap. */
    expiredAt: z.string().optional(),
    expiredBecause: z.enum(['age', 'space']).optional(),
  }),
);

/** Calls about what the store keeps: pins. */
export const checkpointsLiveCalls = defineCalls({
  'checkpoints:pin': {
    summary: 'Pin a checkpoint (retention and the size cap never drop it) or unpin it.',
    request: lazySchema(() =>
      z.object({ dir: z.string().min(1).max(4096), checkpoint: checkpointIdSchema, isPinned: z.boolean() }).strict(),
    ),
    response: lazySchema(() =>
      z.object({ dir: z.string(), id: z.string(), isPinned: z.boolean(), changed: z.boolean() }),
    ),
  },
  'checkpoints:rename': {
    summary:
      'Name a checkpoint, or rename it; an empty name takes the name away (the commit never changes: names are kept beside it).',
    request: lazySchema(() =>
      z
        .object({ dir: z.string().min(1).max(4096), checkpoint: checkpointIdSchema, name: z.string().max(200) })
        .strict(),
    ),
    response: lazySchema(() =>
      z.object({ dir: z.string(), id: z.string(), name: z.string().optional(), changed: z.boolean() }),
    ),
  },
  'checkpoints:dropped': {
    summary:
      "A directory's recently dropped checkpoints (cut by retention, the size cap or a prune), d1 = newest; restorable until they expire, and those that expired with when.",
    request: lazySchema(() => z.object({ dir: z.string().min(1).max(4096) }).strict()),
    response: lazySchema(() =>
      z.object({
        dir: z.string(),
        /** How many days the area keeps a checkpoint (config.json's checkpoints.keepDroppedDays). */
        keepDroppedDays: z.number().nonnegative(),
        entries: z.array(droppedCheckpointSchema),
      }),
    ),
  },
});

/** Events that keep every view of the store live, whichever process changed it. */
export const checkpointsLiveEvents = defineEvents({
  'checkpoints:cut': {
    summary:
      'Checkpoints were dropped (retention, the size cap or a prune): how many, of which directory, when and why.',
    payload: cutRecordSchema,
  },
  'checkpoints:timeline-changed': {
    summary: "A directory's timeline changed (a checkpoint, a cut, a pin, by any process): its count now.",
    payload: lazySchema(() => z.object({ dir: z.string(), total: z.number().int().nonnegative() })),
  },
  'checkpoints:pin-changed': {
    summary: 'A checkpoint was pinned or unpinned.',
    payload: lazySchema(() => z.object({ dir: z.string(), id: z.string(), isPinned: z.boolean() })),
  },
  'checkpoints:renamed': {
    summary: 'A checkpoint was named, renamed, or its name taken away (`name` absent).',
    payload: lazySchema(() => z.object({ dir: z.string(), id: z.string(), name: z.string().optional() })),
  },
  'checkpoints:live-changed': {
    summary: 'Files changed in a watched directory: a comparison with the live directory is out of date.',
    payload: lazySchema(() => z.object({ dir: z.string(), at: z.string() })),
  },
});

/** One checkpoint of the recently dropped area. */
export type DroppedCheckpointData = z.infer<typeof droppedCheckpointSchema>;
/** One cut record. */
export type CutRecord = z.infer<typeof cutRecordSchema>;
/** Why a cut happened. */
export type CutReason = z.infer<typeof cutReasonSchema>;
