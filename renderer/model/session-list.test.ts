import { describe, expect, it } from 'vitest';
import type { Approval } from '../../shared/contract/approvals-contract';
import type { SessionSummary } from '../../shared/contract/sessions-contract';
import {
  addDecision,
  oldestApproval,
  pendingBySession,
  recentDecisionLimit,
  removeApproval,
  upsertApproval,
} from './approval-list';
import { isLive, upsertSession } from './session-list';

function session(id: string, createdAt: string, overrides: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id,
    agent: 'agent',
    roots: ['/w'],
    status: 'idle',
    currentTurn: 0,
    isTurnOpen: false,
    createdAt,
    updatedAt: createdAt,
    lastActiveAt: createdAt,
    toolCallCount: 0,
    warnings: [],
    recentCalls: [],
    files: [],
    fileCount: 0,
    ...overrides,
  };
}

function approval(id: string, expiresAt: string, sessionId = 's1'): Approval {
  return {
    id,
    sessionId,
    agent: 'a',
    turn: 1,
    callId: `c-${id}`,
    tool: 'terminal',
    summary: 'rm -rf build',
    reason: 'rm',
    requestedAt: '2026-01-01T00:00:00Z',
    expiresAt,
  };
}

describe('the live session list', () => {
  it('keeps live sessions in the order they started, disconnected and ended ones after, most recently active first', () => {
    let list = upsertSession([], session('b', '2026-01-01T00:00:02Z'));
    list = upsertSession(list, session('a', '2026-01-01T00:00:01Z', { status: 'working' }));
    list = upsertSession(
      list,
      session('old', '2026-01-01T00:00:00Z', {
        status: 'ended',
        updatedAt: '2026-01-01T00:09:00Z',
        lastActiveAt: '2026-01-01T00:01:00Z',
      }),
    );
    list = upsertSession(
      list,
      session('older', '2026-01-01T00:00:00Z', {
        status: 'ended',
        updatedAt: '2026-01-01T00:03:00Z',
        lastActiveAt: '2026-01-01T00:02:00Z',
      }),
    );
    list = upsertSession(
      list,
      session('gone', '2026-01-01T00:00:00Z', { status: 'disconnected', lastActiveAt: '2026-01-01T00:01:30Z' }),
    );
    expect(list.map((item) => item.id)).toEqual(['a', 'b', 'older', 'gone', 'old']);
    expect(list.filter(isLive).map((item) => item.id)).toEqual(['a', 'b']);
  });

  it('replaces a session in place when it changes, and ignores an update older than the one held', () => {
    const first = upsertSession(
      [],
      session('a', '2026-01-01T00:00:01Z', { updatedAt: '2026-01-01T00:00:05Z', currentTurn: 2 }),
    );
    const stale = upsertSession(
      first,
      session('a', '2026-01-01T00:00:01Z', { updatedAt: '2026-01-01T00:00:03Z', currentTurn: 1 }),
    );
    expect(stale).toBe(first);
    const fresh = upsertSession(
      first,
      session('a', '2026-01-01T00:00:01Z', { updatedAt: '2026-01-01T00:00:09Z', status: 'working' }),
    );
    expect(fresh).toHaveLength(1);
    expect(fresh[0]?.status).toBe('working');
  });
});

describe('approvals', () => {
  it('orders pending approvals by their deadline, lists them per session, and finds the oldest', () => {
    let list = upsertApproval([], approval('late', '2026-01-01T00:05:00Z'));
    list = upsertApproval(list, approval('soon', '2026-01-01T00:01:00Z', 's2'));
    list = upsertApproval(list, approval('late', '2026-01-01T00:05:00Z'));
    expect(list.map((item) => item.id)).toEqual(['soon', 'late']);
    expect([...pendingBySession(list)].map(([id, items]) => [id, items.map((item) => item.id)])).toEqual([
      ['s2', ['soon']],
      ['s1', ['late']],
    ]);
    // The oldest is the one asked first, whatever its deadline (A and D act on it when no card is focused).
    const asked = [
      { ...approval('second', '2026-01-01T00:01:00Z'), requestedAt: '2026-01-01T00:00:20Z' },
      { ...approval('first', '2026-01-01T00:09:00Z'), requestedAt: '2026-01-01T00:00:10Z' },
    ];
    expect(oldestApproval(asked)?.id).toBe('first');
    expect(oldestApproval([])).toBeUndefined();
    expect(removeApproval(list, 'soon').map((item) => item.id)).toEqual(['late']);
    expect(removeApproval(list, 'none')).toBe(list);
  });

  it('keeps a capped list of recent decisions, newest first', () => {
    let decisions = addDecision([], {
      approval: approval('x', 'z'),
      decision: 'denied',
      decidedBy: 'timeout',
      at: 't',
    });
    for (let index = 0; index < 30; index += 1) {
      decisions = addDecision(decisions, {
        approval: approval(`a${index}`, 'z'),
        decision: 'allowed',
        decidedBy: 'human',
        at: 't',
      });
    }
    expect(decisions).toHaveLength(recentDecisionLimit);
    expect(decisions[0]?.approval.id).toBe('a29');
  });
});
