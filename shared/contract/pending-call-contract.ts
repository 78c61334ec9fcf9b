import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/**
 * A call an agent's own hooks reported before it ran, still waiting for its result: asked about in
 * the agent's own permission prompt (Vigil answered "ask"), or let go on (it runs, or waits at a
 * prompt of the agent's own rules). It ends when the result comes, the next call or the turn's end
 * does, or the session ends. Only the agent's prompt decides it: Vigil shows it, read-only.
 */
export const pendingToolCallSchema = lazySchema(() =>
  z.object({
    callId: z.string(),
    /** The agent's own tool name (`Bash`, `Write`, `run_shell_command`). */
    name: z.string(),
    turn: z.number().int().nonnegative(),
    /** One line: the path, the command. */
    summary: z.string(),
    at: z.string(),
    /** Vigil answered "ask": the person decides in the agent's own permission prompt. */
    isAsking: z.boolean(),
    /** Why Vigil asks (its policy's reason, a checkpoint that failed). */
    reason: z.string().optional(),
    /** The agent as people name it (`Claude Code`, `Gemini CLI`): whose prompt decides. */
    agentName: z.string(),
  }),
);

/** A hook-reported call waiting for its result. */
export type PendingToolCall = z.infer<typeof pendingToolCallSchema>;
