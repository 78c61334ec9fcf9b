import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryToolCall, SessionHistory, SessionSummary } from '../../../shared/contract/sessions-contract';
import { formatClock } from '../../model/format';
import { TranscriptView } from './transcript-view';

afterEach(cleanup);

function historyWith(call: HistoryToolCall): SessionHistory {
  return {
    session: {} as SessionSummary,
    rewinds: [],
    turns: [{ turn: 1, startedAt: '2026-01-01T00:00:00Z', isRewound: false, entries: [call] }],
  };
}

const call: HistoryToolCall = {
  kind: 'tool-call',
  at: '2026-01-01T00:00:01Z',
  callId: 'call-1',
  name: 'terminal',
  arguments: { command: 'rm -rf .git .env' },
  decision: 'asked-allowed',
  result: { ok: true, value: {} },
  checkpoints: [
    {
      directory: '/ws',
      checkpointId: 'a'.repeat(40),
      kind: 'created',
      notCovered: [".git is version-control data (git's own history and state), which checkpoints do not store"],
    },
  ],
  checkpointProblems: [],
  isInterrupted: false,
};

describe('TranscriptView', () => {
  it("says what a call's checkpoint does not cover, next to the checkpoint it took", () => {
    render(
      <TranscriptView history={historyWith(call)} onRewind={() => undefined} onOpenCheckpoint={() => undefined} />,
    );
    expect(screen.getByText(/checkpoint aaaaaaaa/u)).toBeTruthy();
    expect(screen.getByTestId('checkpoint-not-covered').textContent).toBe(
      "Not covered by the checkpoint, so it cannot be undone: .git is version-control data (git's own history and state), which checkpoints do not store",
    );
  });

  it('claims nothing more when the checkpoint covers the call', () => {
    render(
      <TranscriptView
        history={historyWith({
          ...call,
          checkpoints: [{ directory: '/ws', checkpointId: 'b'.repeat(40), kind: 'created' }],
        })}
        onRewind={() => undefined}
        onOpenCheckpoint={() => undefined}
      />,
    );
    expect(screen.queryByTestId('checkpoint-not-covered')).toBeNull();
  });

  it("names a command's collision on its row; its button restores their version of that file from the command's checkpoint", () => {
    const restored: string[] = [];
    render(
      <TranscriptView
        history={historyWith({
          ...call,
          collisions: [
            {
              path: '/ws/src/app.ts',
              displayPath: 'src/app.ts',
              otherSessionId: 'ses_a',
              otherLabel: 'claude-code #1',
              changedAt: '2026-01-01T00:00:00Z',
              checkpoint: { directory: '/ws', checkpointId: 'c'.repeat(40) },
            },
          ],
        })}
        onRewind={() => undefined}
        onOpenCheckpoint={() => undefined}
        onRestoreTheirs={(dir, id, file) => restored.push(`${dir} ${id} ${file}`)}
      />,
    );
    expect(screen.getByTestId('call-collision').textContent).toContain(
      'Collision: overwrote src/app.ts, changed by claude-code #1 1 s ago',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Restore their version' }));
    expect(restored).toEqual([`/ws ${'c'.repeat(40)} src/app.ts`]);
  });

  it('offers no restore when no checkpoint holds their version', () => {
    render(
      <TranscriptView
        history={historyWith({
          ...call,
          collisions: [
            {
              path: '/ws/src/app.ts',
              displayPath: 'src/app.ts',
              otherSessionId: 'ses_a',
              otherLabel: 'claude-code #1',
              changedAt: '2026-01-01T00:00:00Z',
            },
          ],
        })}
        onRewind={() => undefined}
        onOpenCheckpoint={() => undefined}
        onRestoreTheirs={() => undefined}
      />,
    );
    expect(screen.getByTestId('call-collision')).toBeTruthy();
    expect(screen.queryByTestId('restore-theirs')).toBeNull();
  });

  it('on the row of a change another session overwrote: who, with what, when; its button restores this session’s version', () => {
    const restored: string[] = [];
    const at = '2026-01-01T10:42:13Z';
    render(
      <TranscriptView
        history={historyWith({
          ...call,
          overwrittenBy: [
            {
              path: '/ws/src/app.ts',
              displayPath: 'src/app.ts',
              bySessionId: 'ses_b',
              byLabel: 'codex #2',
              byTool: 'terminal',
              at,
              changedAt: '2026-01-01T10:42:00Z',
              checkpoint: { directory: '/ws', checkpointId: 'd'.repeat(40) },
            },
          ],
        })}
        onRewind={() => undefined}
        onOpenCheckpoint={() => undefined}
        onRestoreTheirs={(dir, id, file) => restored.push(`${dir} ${id} ${file}`)}
      />,
    );
    expect(screen.getByTestId('call-overwritten').textContent).toContain(
      `codex #2 overwrote your change to src/app.ts at ${formatClock(at)} (terminal)`,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Restore this session’s version' }));
    expect(restored).toEqual([`/ws ${'d'.repeat(40)} src/app.ts`]);
  });
});
