import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/**
 * A terminal command that overwrote another live session's recent change of a file (found after
 * it ran, from the write ledger as it was before it ran; `sessions.collisions` "ask" or "warn").
 */
export const callCollisionSchema = lazySchema(() =>
  z.object({
    /** The file, absolute. */
    path: z.string(),
    /** The file as people read it (relative to its workspace root). */
    displayPath: z.string(),
    otherSessionId: z.string(),
    /** The other session's name for people (`claude-code #1`). */
    otherLabel: z.string(),
    /** When the other session changed it (ISO time). */
    changedAt: z.string(),
    /** The command's checkpoint (taken before it ran) that holds the other session's version, when one was taken. */
    checkpoint: z.object({ directory: z.string(), checkpointId: z.string() }).optional(),
  }),
);

/** A command's collision, as its call's result records it. */
export type CallCollision = z.infer<typeof callCollisionSchema>;

/**
 * What the OTHER session learns of a collision: another session's call (a terminal command, or a
 * file tool that ran after a collision was allowed or warned about) overwrote this session's change.
 */
export const overwriteNoticeSchema = lazySchema(() =>
  z.object({
    /** The file, absolute. */
    path: z.string(),
    /** The file as people read it (relative to its workspace root). */
    displayPath: z.string(),
    /** The session whose call overwrote it, and its name for people (`codex #2`). */
    bySessionId: z.string(),
    byLabel: z.string(),
    /** The tool of that call (`terminal`, `write_file`, `patch`). */
    byTool: z.string(),
    /** When it was overwritten (ISO time). */
    at: z.string(),
    /** When this session had changed it (ISO time). */
    changedAt: z.string(),
    /** The checkpoint (taken before the overwriting call) that holds this session's version, when one was taken. */
    checkpoint: z.object({ directory: z.string(), checkpointId: z.string() }).optional(),
  }),
);

/** Another session's call overwrote this session's change of a file. */
export type OverwriteNotice = z.infer<typeof overwriteNoticeSchema>;
