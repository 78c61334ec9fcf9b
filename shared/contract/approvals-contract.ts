import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { defineCalls, defineEvents } from './define';
import { sessionIdSchema } from './sessions-contract';

/**
 * Approvals: a tool call that policy marks "ask" waits here for a human. It is denied when the
 * wait times out or its session closes (fail closed).
 */

/**
 * Why a call collides with another live session: the file, who changed it and when, and the two
 * changes as unified diffs (theirs: the other session's turn's change; proposed: this call's).
 */
export const approvalCollisionSchema = lazySchema(() =>
  z.object({
    /** The file, absolute. */
    path: z.string(),
    /** The file as people read it: relative to its workspace root. */
    displayPath: z.string(),
    /** This session's name for people (`claude-code #2`). */
    label: z.string(),
    otherSessionId: sessionIdSchema,
    /** The other session's name for people (`claude-code #1`). */
    otherLabel: z.string(),
    /** When the other session changed it (ISO). */
    changedAt: z.string(),
    /** The other session's change, as a unified diff; absent when its earlier version is not stored. */
    theirs: z.string().optional(),
    /** This call's proposed change, as a unified diff; absent when it cannot be worked out before the call runs. */
    proposed: z.string().optional(),
  }),
);

/** A tool call waiting for a human decision. */
export const approvalSchema = lazySchema(() =>
  z.object({
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
    /** Set when the call is held because it would overwrite another live session's recent change. */
    collision: approvalCollisionSchema.optional(),
    /** Set when its checkpoint failed: approved, it runs without one, and its change cannot be undone. */
    isWithoutCheckpoint: z.boolean().optional(),
  }),
);

/** What a person answers: allow, deny, or deny and tell the agent to read the file again (a collision). */
export const approvalAnswerSchema = lazySchema(() => z.enum(['allow', 'deny', 'deny-reread']));

/** How an approval ended. */
export const approvalDecisionSchema = lazySchema(() => z.enum(['allowed', 'denied']));

/** Who or what decided; `unattended`: nobody can approve in this process (a one-shot CLI command). */
export const approvalDeciderSchema = lazySchema(() =>
  z.enum(['human', 'timeout', 'session-closed', 'shutdown', 'unattended']),
);

/** Calls about approvals. */
export const approvalsCalls = defineCalls({
  'approvals:list': {
    summary: 'Tool calls waiting for a human decision, oldest first.',
    request: lazySchema(() => z.object({}).strict()),
    response: lazySchema(() => z.object({ approvals: z.array(approvalSchema) })),
  },
  'approvals:decide': {
    summary: 'Allows or denies a waiting tool call.',
    request: lazySchema(() => z.object({ id: z.string().min(1), decision: approvalAnswerSchema }).strict()),
    response: lazySchema(() => z.object({ approval: approvalSchema, decision: approvalDecisionSchema })),
  },
});

/** Events about approvals. */
export const approvalsEvents = defineEvents({
  'approvals:requested': {
    summary: 'A tool call is waiting for a human decision.',
    payload: lazySchema(() => z.object({ approval: approvalSchema })),
  },
  'approvals:decided': {
    summary: 'A waiting tool call was allowed or denied (by a human, a timeout, or its session closing).',
    payload: lazySchema(() =>
      z.object({
        approval: approvalSchema,
        decision: approvalDecisionSchema,
        decidedBy: approvalDeciderSchema,
        at: z.string(),
      }),
    ),
  },
});

/** A waiting tool call. */
export type Approval = z.infer<typeof approvalSchema>;
/** Why a call collides with another session, with both changes. */
export type ApprovalCollision = z.infer<typeof approvalCollisionSchema>;
/** allow | deny | deny-reread. */
export type ApprovalAnswer = z.infer<typeof approvalAnswerSchema>;
/** allowed | denied. */
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;
/** human | timeout | session-closed | shutdown | unattended. */
export type ApprovalDecider = z.infer<typeof approvalDeciderSchema>;
