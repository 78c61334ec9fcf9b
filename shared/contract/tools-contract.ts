import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { resultSchema } from './wire';
import { defineCalls } from './define';
import { callCheckpointSchema, toolDecisionSchema } from './sessions-contract';

/** What became of one tool call run for the CLI (`vigil tool`). */
export const toolRunOutcomeSchema = lazySchema(() =>
  z.object({
    callId: z.string(),
    name: z.string(),
    turn: z.number().int().nonnegative(),
    decision: toolDecisionSchema,
    reason: z.string().optional(),
    result: resultSchema,
    checkpoints: z.array(callCheckpointSchema),
    checkpointProblems: z.array(z.string()),
  }),
);

/** Calls that run agent tools for a person at the command line. */
export const toolsCalls = defineCalls({
  'tools:run': {
    summary:
      "Run one agent tool call in a session of its own (opened, logged and closed), exactly as an agent's call runs: validation, policy, checkpoint, the tool. Command-line only.",
    request: lazySchema(() =>
      z
        .object({
          name: z.string().min(1).max(200),
          arguments: z.unknown(),
          cwd: z.string().min(1).max(4096),
          roots: z.array(z.string().min(1).max(4096)).min(1).max(64),
          agent: z.string().min(1).max(200).optional(),
        })
        .strict(),
    ),
    response: toolRunOutcomeSchema,
  },
});

/** What `tools:run` answers. */
export type ToolRunOutcome = z.infer<typeof toolRunOutcomeSchema>;
