import { createHash } from 'node:crypto';
import type { HookAgent } from '../../shared/hooks/hook-event';

/**
 * The Vigil session id of an agent's session: `claude-code-<session_id>` (a readable name, the same
 * in every process, so each hook event finds its session without any table), or the agent's id
 * hashed when it does not fit Vigil's id rule (letters, digits, `_`, `-`, at most 64).
 */
export function vigilSessionIdOf(agent: HookAgent, agentSessionId: string): string {
  if (/^[A-Za-z0-9_-]{1,50}$/.test(agentSessionId)) return `${agent}-${agentSessionId}`;
  return `${agent}-${createHash('sha256').update(agentSessionId).digest('hex').slice(0, 40)}`;
}
