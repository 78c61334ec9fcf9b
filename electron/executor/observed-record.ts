import type { CallCheckpoint, ToolDecision } from '../../shared/contract/sessions-contract';
import type { Result } from '../../shared/result';
import { condenseResult } from '../sessions/logged-value';
import type { SessionRecord } from '../sessions/session-records';
import type { CallLog } from '../sessions/call-log';
import type { TouchedDirectory } from './checkpoint-gate';

/**
 * A tool call an agent runs itself (reported by its hooks), as the pipeline decided and
 * checkpointed it before it ran, waiting for its result. It goes to the session log only then (or,
 * when no result comes, at the turn's end as a call that did not run): only then is it known
 * whether the agent's own permission prompt let it run.
 */
export interface ObservedCall {
  readonly callId: string;
  /** The agent's own tool name. */
  readonly tool: string;
  readonly kind: 'file' | 'shell';
  readonly turn: number;
  readonly at: string;
  /** Vigil's answer: no objection, or the person decides in the agent's own prompt. */
  readonly decision: 'allow' | 'ask';
  readonly reason?: string;
  /** The arguments as the session keeps them (condensed; a secret call's contents withheld). */
  readonly arguments: unknown;
  /** It names or touches a secret path (`.env*`, keys): its result is kept without contents too. */
  readonly isSecret: boolean;
  readonly checkpoints: readonly CallCheckpoint[];
  readonly touched: readonly TouchedDirectory[];
  /** What Vigil could not do for it (a checkpoint that failed, a path it does not supervise). */
  readonly problems: readonly string[];
  /** The files and folders it names (absolute): what it is recorded as having changed. */
  readonly targets: readonly string[];
}

/** How an observed call ends on record. */
export interface ObservedEnding {
  readonly decision: ToolDecision;
  readonly reason?: string;
  readonly result: Result<unknown>;
  /** When the ending was known (the result came, or the turn ended without one). */
  readonly at: string;
}

/**
 * The record stage of an observed call: writes it to its session's log — the call (its decision, checkpoints
 * and what Vigil could not do for it) and its result; the registry tells the UI (`sessions:tool-called`),
 * as it does for Vigil's own tools.
 */
export async function recordObservedCall(
  deps: { readonly sessions: Pick<CallLog, 'nextSeq' | 'record'> },
  sessionId: string,
  call: ObservedCall,
  ending: ObservedEnding,
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
