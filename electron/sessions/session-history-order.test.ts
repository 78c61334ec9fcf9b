import { describe, expect, it } from 'vitest';
import type { SessionRecord } from './session-records';
import { toHistory } from './session-history';
import { applyRecord, initialState } from './session-state';

/** A call record as the hooks log it: when the call began, logged when its outcome was known. */
function call(seq: number, at: string, decision: 'allowed' | 'blocked'): SessionRecord {
  return {
    type: 'call',
    at,
    turn: 1,
    seq,
    callId: `c${seq}`,
    name: 'Bash',
    arguments: { command: `step ${seq}` },
    decision,
    checkpoints: [],
    checkpointProblems: [],
    touched: [],
  };
}

describe('a session history', () => {
  it('lists the calls of a turn in the order they began, whenever each was logged', () => {
    const state = initialState({
      type: 'opened',
      v: 1,
      at: '2026-01-01T00:00:00.000Z',
      id: 'claude-code-order',
      agent: 'claude-code',
      roots: ['/w'],
    });
    const records: SessionRecord[] = [
      { type: 'turn-began', at: '2026-01-01T00:00:01.000Z', turn: 1 },
      { type: 'message', at: '2026-01-01T00:00:01.000Z', turn: 1, role: 'user', text: 'go' },
      // The refusal of the third call is logged at once, before the first two report their results.
      call(3, '2026-01-01T00:00:04.000Z', 'blocked'),
      call(1, '2026-01-01T00:00:02.000Z', 'allowed'),
      call(2, '2026-01-01T00:00:03.000Z', 'allowed'),
    ];
    for (const record of records) applyRecord(state, record);
    const [turn] = toHistory(state, 'idle').turns;
    expect(turn?.entries.map((entry) => (entry.kind === 'message' ? entry.text : entry.callId))).toEqual([
      'go',
      'c1',
      'c2',
      'c3',
    ]);
  });
});
