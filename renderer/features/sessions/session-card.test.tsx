import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionStatus, SessionSummary } from '../../../shared/contract/sessions-contract';
import { sessionColourClass } from '../../model/session-lanes';
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
    lastToolCall: {
      callId: 'c',
      name: 'terminal',
      turn: 3,
      decision: 'allowed',
      isOk: true,
      summary: `curl -H "Authorization: Bearer ${'t0k3n'.repeat(4)}"`,
      at: '2026-05-01T10:00:00Z',
    },
    warnings: [],
    recentCalls: [],
    files: [],
    fileCount: 0,
    ...overrides,
  };
}

function card(session: SessionSummary, label?: string): void {
  render(
    <SessionCard
      session={session}
      label={label}
      laneClass={sessionColourClass(session.id)}
      pendingApprovals={[]}
      isOpen={false}
      now={now}
      onOpen={vi.fn()}
      onShowApprovals={vi.fn()}
    />,
  );
}

describe('SessionCard', () => {
  it.each(Object.entries(sessionStatusLabels))('shows exactly one state: %s', (status, label) => {
    card(summary(status as SessionStatus, { lastActiveAt: '2026-05-01T11:59:30Z' }));
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

  it("shows the whole agent name and shortens the id, the turn's prompt on one clean line, the latest calls and the files with +/−", () => {
    const calls = [5, 4, 3, 2, 1].map((number) => ({
      callId: `c${number}`,
      name: 'write_file',
      turn: 3,
      decision: 'allowed' as const,
      isOk: true,
      summary: `file-${number}.txt`,
      at: '2026-05-01T10:00:00Z',
    }));
    render(
      <SessionCard
        session={summary('working', {
          id: 'ses_0123456789abcdef',
          agent: 'gemini-cli-documentation-writer',
          prompt: 'Fix the \u001b[31mred\u001b[0m tests\nthen explain',
          recentCalls: calls,
          files: [
            { path: '/w/src/app.ts', change: 'modified', added: 3, removed: 1, at: '2026-05-01T10:00:00Z' },
            { path: '/w/old.txt', change: 'deleted', at: '2026-05-01T10:00:00Z' },
          ],
          fileCount: 2,
        })}
        laneClass="lane-0"
        pendingApprovals={[
          {
            id: 'ap1',
            sessionId: 'ses_0123456789abcdef',
            agent: 'x',
            turn: 3,
            callId: 'c6',
            tool: 'terminal',
            summary: 'rm -rf build',
            reason: 'asks',
            requestedAt: 't',
            expiresAt: 't',
          },
        ]}
        isOpen={false}
        now={now}
        onOpen={vi.fn()}
        onShowApprovals={vi.fn()}
      />,
    );
    expect(screen.getByTestId('session-agent').textContent).toBe('gemini-cli-documentation-writer');
    expect(screen.getByTestId('session-id').textContent).toBe('ses_0123…cdef');
    expect(screen.getByTestId('session-id').getAttribute('title')).toBe('ses_0123456789abcdef');
    expect(screen.getByTestId('session-prompt').textContent).toBe('Fix the \\u001b[31mred\\u001b[0m tests …');
    expect(screen.getAllByTestId('session-call').map((item) => item.textContent)).toEqual(
      calls.map((call) => `write_file${call.summary}allowed`),
    );
    expect(screen.getAllByTestId('session-file').map((item) => item.textContent)).toEqual([
      'src/app.ts+3 −1',
      'old.txtdeleted',
    ]);
    expect(screen.getByTestId('session-pending').textContent).toBe('1 approval pending');
    expect(screen.getByTestId('session-pending-list').textContent).toContain('terminal: rm -rf build');
  });

  it('says "no activity" instead of "working" once a working session has been silent for a minute', () => {
    card(summary('working', { lastActiveAt: '2026-05-01T11:58:45Z' }));
    const badge = screen.getByTestId('session-status');
    expect(badge.textContent).toBe('no activity for 75 s');
    expect(badge.getAttribute('data-kind')).toBe('working');
    expect(badge.getAttribute('data-quiet')).toBe('true');
    cleanup();
    card(summary('working', { lastActiveAt: '2026-05-01T11:59:01Z' }));
    expect(screen.getByTestId('session-status').textContent).toBe('working');
    cleanup();
    card(summary('working', { lastActiveAt: '2026-05-01T11:50:00Z' }));
    expect(screen.getByTestId('session-status').textContent).toBe('no activity for 10 min');
    cleanup();
    // Only a working session can be quiet: idle is between turns, and says so.
    card(summary('idle', { lastActiveAt: '2026-05-01T11:50:00Z' }));
    expect(screen.getByTestId('session-status').textContent).toBe('idle');
  });

  it('shows the numbered name it is given, so two sessions of one agent differ by more than their ids', () => {
    card(summary('idle'), 'claude-code #2');
    expect(screen.getByTestId('session-agent').textContent).toBe('claude-code #2');
  });

  it('shows a call waiting at the agent\'s own prompt as "asking in Claude Code", not "No tool call yet", until its result replaces it', () => {
    const asking = {
      callId: 'toolu_1',
      name: 'Bash',
      turn: 3,
      summary: `curl -H "Authorization: Bearer ${'t0k3n'.repeat(4)}" && touch asked.txt`,
      at: '2026-05-01T11:59:00Z',
      isAsking: true,
      reason: 'the test asks about every touch',
      agentName: 'Claude Code',
    };
    card(summary('waiting-approval', { toolCallCount: 0, lastToolCall: undefined, pendingCall: asking }));
    const pending = screen.getByTestId('session-pending-call');
    expect(pending.textContent).toBe(
      'asking in Claude Code: Bash curl -H "Authorization: Bearer [masked]" && touch asked.txt',
    );
    expect(pending.textContent).not.toContain('t0k3nt0k3n');
    expect(pending.getAttribute('data-asking')).toBe('true');
    expect(pending.getAttribute('title')).toContain("Claude Code's own permission prompt");
    expect(screen.getByTestId('session-status').getAttribute('title')).toBe(
      "A tool call waits for your decision in Claude Code's own permission prompt.",
    );
    expect(screen.queryByText('No tool call yet')).toBeNull();
    cleanup();

    card(
      summary('working', {
        lastActiveAt: '2026-05-01T11:59:30Z',
        toolCallCount: 0,
        lastToolCall: undefined,
        pendingCall: { ...asking, name: 'run_shell_command', isAsking: false, agentName: 'Gemini CLI', summary: 'ls' },
      }),
    );
    expect(screen.getByTestId('session-pending-call').textContent).toBe('running in Gemini CLI: run_shell_command ls');
    expect(screen.getByTestId('session-status').textContent).toBe('working');
    cleanup();

    card(summary('working'));
    expect(screen.queryByTestId('session-pending-call')).toBeNull();
    expect(screen.getAllByTestId('session-call')).toHaveLength(1);
  });

  it("warns on a terminal command's row that it overwrote another session's recent change, naming the file and the session", () => {
    card(
      summary('working', {
        recentCalls: [
          {
            callId: 'c2',
            name: 'terminal',
            turn: 3,
            decision: 'allowed',
            isOk: true,
            summary: 'sed -i s/a/b/ src/app.ts',
            at: '2026-05-01T11:00:40Z',
            collisions: [
              {
                path: '/w/src/app.ts',
                displayPath: 'src/app.ts',
                otherSessionId: 'ses_other',
                otherLabel: 'claude-code #1',
                changedAt: '2026-05-01T11:00:00Z',
              },
            ],
          },
        ],
      }),
    );
    expect(screen.getByTestId('session-call-collision').textContent).toBe(
      'overwrote src/app.ts, changed by claude-code #1 40 s ago',
    );
  });
});
