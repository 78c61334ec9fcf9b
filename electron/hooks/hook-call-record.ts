import type { ToolDecision } from '../../shared/contract/sessions-contract';
import type { Result } from '../../shared/result';
import { condenseResult } from '../sessions/logged-value';
import type { SessionRecord } from '../sessions/session-records';
import type { CallLog } from '../sessions/call-log';
import type { PendingCall } from './hook-state-store';

/** How a call the hooks reported ends on record. */
export interface HookCallEnding {
  readonly decision: ToolDecision;
  readonly reason?: string;
  readonly result: Result<unknown>;
  /** When the ending was known (the result came, or the turn ended without one). */
  readonly at: string;
}

/**
 * Writes one call the hooks reported to its session's log — the call (its decision, checkpoints
 * and what Vigil could not do for it) and its result; the registry tells the UI (`sessions:tool-called`),
 * as it does for Vigil's own tools.
 */
export async function recordHookCall(
  deps: { readonly sessions: Pick<CallLog, 'nextSeq' | 'record'> },
  sessionId: string,
  call: PendingCall,
  ending: HookCallEnding,
): Promise<void> {
  const seq = deps.sessions.nextSeq(sessionId);
  const records: SessionRecord[] = [
    {
      type: 'call',
      at: call.at,
      turn: call.turn,
      seq,
      callId: call.callId,
      name: call.tool,
      arguments: call.arguments,
      decision: ending.decision,
      reason: ending.reason,
      checkpoints: [...call.checkpoints],
      checkpointProblems: [...call.problems],
      touched: call.touched.map(({ paths, ...rest }) => (paths === undefined ? rest : { ...rest, paths: [...paths] })),
    },
    {
      type: 'result',
      at: ending.at,
      seq,
      result: condenseResult(ending.result, { isSecret: call.isSecret }),
      durationMs: Math.max(0, Date.parse(ending.at) - Date.parse(call.at)),
    },
  ];
  await deps.sessions.record(sessionId, records);
}
