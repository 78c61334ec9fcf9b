import { z } from 'zod';
import { defineCalls, defineEvents } from './define';
import { sessionIdSchema } from './sessions-contract';

/**
 * Approvals: a tool call that policy marks "ask" waits here for a human. It is denied when the
 * wait times out or its session closes (fail closed).
 */

/** A tool call waiting for a human decision. */
export const approvalSchema = z.object({
  id: z.string(),
  sessionId: sessionIdSchema,
  agent: z.string(),
  turn: z.number().int().nonnegative(),
  callId: z.string(),
  tool: z.string(),
  /** What would run: the command, or the path and action. */
  summary: z.string(),
  /** Why policy asks (the rule or dangerous pattern that matched). */
  reason: z.string(),
  /** The terminal command's working directory, when it is one. */
  cwd: z.string().optional(),
  requestedAt: z.string(),
  /** When the call is denied if nobody decides. */
  expiresAt: z.string(),
});

/** How an approval ended. */
export const approvalDecisionSchema = z.enum(['allowed', 'denied']);

/** Who or what decided; `unattended`: nobody can approve in this process (a one-shot CLI command). */
export const approvalDeciderSchema = z.enum(['human', 'timeout', 'session-closed', 'shutdown', 'unattended']);

/** Calls about approvals. */
export const approvalsCalls = defineCalls({
  'approvals:list': {
    summary: 'Tool calls waiting for a human decision, oldest first.',
    request: z.object({}).strict(),
    response: z.object({ approvals: z.array(approvalSchema) }),
  },
  'approvals:decide': {
    summary: 'Allows or denies a waiting tool call.',
    request: z.object({ id: z.string().min(1), decision: z.enum(['allow', 'deny']) }).strict(),
    response: z.object({ approval: approvalSchema, decision: approvalDecisionSchema }),
  },
});

/** Events about approvals. */
export const approvalsEvents = defineEvents({
  'approvals:requested': {
    summary: 'A tool call is waiting for a human decision.',
    payload: z.object({ approval: approvalSchema }),
  },
  'approvals:decided': {
    summary: 'A waiting tool call was allowed or denied (by a human, a timeout, or its session closing).',
    payload: z.object({
      approval: approvalSchema,
      decision: approvalDecisionSchema,
      decidedBy: approvalDeciderSchema,
      at: z.string(),
    }),
  },
});

/** A waiting tool call. */
export type Approval = z.infer<typeof approvalSchema>;
/** allowed | denied. */
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;
/** human | timeout | session-closed | shutdown | unattended. */
export type ApprovalDecider = z.infer<typeof approvalDeciderSchema>;
