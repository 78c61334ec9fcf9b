import type {
  HistoryEntry,
  HistoryToolCall,
  SessionHistory,
  SessionStatus,
} from '../../shared/contract/sessions-contract';
import { toSummary } from './session-brief';
import { overwrittenByOf, type CallState, type SessionState } from './session-state';

/** The call as history shows it; a call without a result was interrupted by a crash or kill. */
export function historyCall(call: CallState, state?: SessionState): HistoryToolCall {
  const { record, result } = call;
  return {
    kind: 'tool-call',
    at: record.at,
    callId: record.callId,
    name: record.name,
    arguments: record.arguments,
    decision: record.decision,
    reason: record.reason,
    result: result?.result ?? {
      ok: false,
      error: {
        code: 'cancelled',
        message:
          'Vigil stopped before this call finished (a crash or a kill): it may have run in part. Check the files it names.',
      },
    },
    checkpoints: record.checkpoints,
    checkpointProblems: record.checkpointProblems,
    durationMs: result?.durationMs,
    isInterrupted: result === undefined,
    effects: result?.effects,
    effectsOmitted: result?.effectsOmitted,
    collisions: result?.collisions,
    ...(state === undefined ? {} : overwrittenByOf(state, record.seq)),
  };
}

/** The canonical history: every turn in order, rewound ones marked. */
export function toHistory(state: SessionState, status: SessionStatus): SessionHistory {
  const turns = [...state.turns.values()]
    .sort((a, b) => a.turn - b.turn)
    .map((turn) => ({
      turn: turn.turn,
      startedAt: turn.startedAt,
      endedAt: turn.endedAt,
      isRewound: turn.rewoundAt !== undefined,
      rewoundAt: turn.rewoundAt,
      // In the order they happened: a call is logged when its outcome is known (a refusal at once, an
      // allowed hook call at its result, an unreported one at the turn's end), not when it began.
      entries: turn.entries
        .flatMap((entry): HistoryEntry[] => {
          if (entry.kind === 'message') return [entry];
          const call = state.calls.get(entry.seq);
          return call === undefined ? [] : [historyCall(call, state)];
        })
        .sort((a, b) => Date.parse(a.at) - Date.parse(b.at)),
    }));
  return { session: toSummary(state, status), turns, rewinds: [...state.rewinds] };
}
