import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { approvalDeciderSchema, approvalDecisionSchema, approvalSchema } from '../contract/approvals-contract';
import { rewindRecordSchema, sessionHistorySchema, sessionIdSchema } from '../contract/sessions-contract';

/**
 * The notifications Vigil sends to an agent (JSON-RPC requests without an id), only about the
 * sessions that agent opened on its connection.
 */
export const agentNotifications = {
  'session.rewound': {
    summary:
      'A human rewound the session (code, conversation or both). Continue from `history`: turns marked rewound did not happen.',
    params: lazySchema(() =>
      z.object({ sessionId: sessionIdSchema, rewind: rewindRecordSchema, history: sessionHistorySchema }),
    ),
  },
  'approval.requested': {
    summary: 'A tool call of the session waits for a human decision; its `tools.call` answers once decided.',
    params: lazySchema(() => z.object({ sessionId: sessionIdSchema, approval: approvalSchema })),
  },
  'approval.decided': {
    summary: 'A waiting tool call was allowed or denied (by a human, a timeout, or the session closing).',
    params: lazySchema(() =>
      z.object({
        sessionId: sessionIdSchema,
        approval: approvalSchema,
        decision: approvalDecisionSchema,
        decidedBy: approvalDeciderSchema,
        at: z.string(),
      }),
    ),
  },
} as const;

/** The name of a notification. */
export type AgentNotificationName = keyof typeof agentNotifications;
/** A notification's params. */
export type AgentNotificationParams<N extends AgentNotificationName> = z.output<
  (typeof agentNotifications)[N]['params']
>;

/** Whether a string names a notification of the agent protocol. */
export function isAgentNotificationName(name: string): name is AgentNotificationName {
  return Object.hasOwn(agentNotifications, name);
}
