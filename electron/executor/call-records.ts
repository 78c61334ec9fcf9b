import { callSecretReason } from '../sessions/logged-record';
import { condenseResult, condenseValue } from '../sessions/logged-value';
import type { SessionRecord } from '../sessions/session-records';
import type { ExecutionSession } from '../tools';
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
