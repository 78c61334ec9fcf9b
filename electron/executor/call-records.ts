import type { CallCheckpoint, ToolDecision } from '../../shared/contract/sessions-contract';
import type { Result } from '../../shared/result';
import { callSecretReason, condenseResult, condenseValue } from '../sessions';
import type { CallLog, SessionRecord } from '../sessions';
import type { ExecutionSession } from '../tools';
import type { TouchedDirectory } from './checkpoint-gate';
import { itemResult, type PipelineItem } from './pipeline-item';

/**
 * Whether the call's contents must stay out of the session: it names or touches a secret path
 * (`.env*`, keys, credentials), judged on the paths as resolved and as given.
 */
function isSecret(item: PipelineItem): boolean {
  const subject = item.prepared?.subject;
  const resolved = [...(subject?.paths ?? []), ...(subject?.terminal?.touched ?? [])];
  return (
    callSecretReason({
      arguments: item.request.arguments,
      resolved,
      relative: item.touched.flatMap((touched) => touched.paths ?? []),
    }) !== undefined
  );
}

/** The session-log record of a call as decided and checkpointed, before it runs. */
export function callRecord(item: PipelineItem, session: ExecutionSession): SessionRecord {
  return {
    type: 'call',
    at: new Date().toISOString(),
    turn: session.turn,
    seq: item.seq,
    callId: item.callId,
    name: item.request.name,
    arguments: condenseValue(item.request.arguments, { isSecret: isSecret(item) }),
    decision: item.decision ?? 'invalid',
    ...(item.reason === undefined ? {} : { reason: item.reason }),
    ...(item.decidedVia === undefined ? {} : { decidedVia: item.decidedVia }),
    checkpoints: [...item.checkpoints],
    checkpointProblems: [...item.problems],
    touched: item.touched.map(({ paths, ...rest }) => (paths === undefined ? rest : { ...rest, paths: [...paths] })),
  };
}

/** The session-log record of a call's result: what it returned, how long it took, what it changed. */
export function resultRecord(item: PipelineItem): SessionRecord {
  return {
    type: 'result',
    at: new Date().toISOString(),
    seq: item.seq,
    result: condenseResult(itemResult(item), { isSecret: isSecret(item) }),
    durationMs: item.durationMs,
    ...(item.effects === undefined || item.effects.length === 0
      ? {}
      : { effects: item.effects.map((effect) => ({ ...effect })) }),
    ...(item.effectsOmitted === undefined || item.effectsOmitted === 0 ? {} : { effectsOmitted: item.effectsOmitted }),
    ...(item.collisions === undefined || item.collisions.length === 0 ? {} : { collisions: [...item.collisions] }),
  };
}

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
