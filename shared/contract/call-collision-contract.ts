import { z } from 'zod';

/**
 * A terminal command that overwrote another live session's recent change of a file (found after
 * it ran, from the write ledger as it was before it ran; `sessions.collisions` "ask" or "warn").
 */
export const callCollisionSchema = z.object({
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
});

/** A command's collision, as its call's result records it. */
export type CallCollision = z.infer<typeof callCollisionSchema>;
