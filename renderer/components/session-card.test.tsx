import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionStatus, SessionSummary } from '../../shared/contract/sessions-contract';
import { sessionColourClass } from '../model/session-lanes';
import { SessionCard, sessionStatusLabels } from './session-card';

afterEach(cleanup);

const now = Date.parse('2026-05-01T12:00:00Z');

function summary(status: SessionStatus, overrides: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id: 'ses_card1',
    agent: 'claude-code',
    roots: ['/w'],
    cwd: '/w',
    status,
    currentTurn: 3,
    isTurnOpen: status === 'working',
    createdAt: '2026-05-01T09:00:00Z',
    updatedAt: '2026-05-01T11:59:00Z',
    lastActiveAt: '2026-05-01T10:00:00Z',
    toolCallCount: 4,
    lastToolCall: { callId: 'c', name: 'terminal', turn: 3, decision: 'allowed', isOk: true, summary: `curl -H "Authorization: Bearer ${'t0k3n'.repeat(4)}"`, at: '2026-05-01T10:00:00Z' },
    warnings: [],
    recentCalls: [],
    files: [],
    fileCount: 0,
    ...overrides,
  };
}

function card(session: SessionSummary): void {
  render(<SessionCard session={session} laneClass={sessionColourClass(session.id)} pendingApprovals={0} isOpen={false} now={now} onOpen={vi.fn()} onShowApprovals={vi.fn()} />);
}

describe('SessionCard', () => {
  it.each(Object.entries(sessionStatusLabels))('shows exactly one state: %s', (status, label) => {
    card(summary(status as SessionStatus));
    const badge = screen.getByTestId('session-status');
    expect(badge.textContent).toBe(label);
    expect(badge.getAttribute('data-kind')).toBe(status);
  });

  it('says when the agent was last active (not when the session last changed), masks secrets in the last call, and takes its colour from its id', () => {
    card(summary('disconnected'));
    expect(screen.getByTestId('session-last-active').textContent).toBe('active 2 h ago');
    expect(screen.getByTestId('session-last-call').textContent).toContain('Bearer [masked]');
    expect(screen.getByTestId('session-last-call').textContent).not.toContain('t0k3n');
    expect(screen.getByTestId('session-card').className).toContain(sessionColourClass('ses_card1'));
  });
});
