import type { PendingToolCall } from '../../shared/contract/pending-call-contract';
import type { SessionSummary } from '../../shared/contract/sessions-contract';

/** A call waiting at its agent's own permission prompt, with its session. */
export interface AgentPromptCall {
  readonly sessionId: string;
  readonly call: PendingToolCall;
}

/** The calls Vigil asked about that wait at their agent's own permission prompt, oldest first. */
export function agentPromptCalls(sessions: readonly SessionSummary[]): readonly AgentPromptCall[] {
  return sessions
    .flatMap((session) =>
      session.pendingCall?.isAsking === true ? [{ sessionId: session.id, call: session.pendingCall }] : [],
    )
    .sort((a, b) => (a.call.at < b.call.at ? -1 : a.call.at > b.call.at ? 1 : 0));
}

/** How many calls wait at their agent's own permission prompt. */
export function agentPromptCount(sessions: readonly SessionSummary[]): number {
  return sessions.filter((session) => session.pendingCall?.isAsking === true).length;
}
