import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Approval } from '../../../shared/contract/approvals-contract';
import { formatClock } from '../../model/format';
import { ApprovalCard } from './approval-card';

afterEach(cleanup);

const approval: Approval = {
  id: 'ap1',
  sessionId: 's1',
  agent: 'alpha',
  turn: 2,
  callId: 'c1',
  tool: 'terminal',
  summary: 'rm -rf build',
  reason: 'rm deletes files',
  requestedAt: '2026-05-01T12:00:00Z',
  expiresAt: '2026-05-01T12:02:00Z',
};

describe('ApprovalCard', () => {
  it('counts down to the automatic denial while connected', () => {
    render(
      <ApprovalCard
        approval={approval}
        laneClass="lane-0"
        now={Date.parse('2026-05-01T12:00:30Z')}
        deciding={undefined}
        error={undefined}
        onDecide={vi.fn()}
      />,
    );
    expect(screen.getByText('Denied in').parentElement?.textContent).toBe('Denied in 1:30');
    expect(screen.queryByTestId('approval-deadline')).toBeNull();
  });

  it('runs no countdown while disconnected: whether the call still waits is not known, only its deadline', () => {
    render(
      <ApprovalCard
        approval={approval}
        laneClass="lane-0"
        now={Date.parse('2026-05-01T12:00:30Z')}
        deciding={undefined}
        error={undefined}
        isConnected={false}
        onDecide={vi.fn()}
      />,
    );
    expect(screen.queryByText('Denied in')).toBeNull();
    expect(screen.getByTestId('approval-deadline').textContent).toBe(
      `Not known while disconnected (denied at ${formatClock(approval.expiresAt)} unless decided)`,
    );
  });

  it('says plainly that an approved call whose checkpoint failed runs without one, and never promises a checkpoint', () => {
    const props = {
      laneClass: 'lane-0',
      now: Date.parse('2026-05-01T12:00:30Z'),
      deciding: undefined,
      error: undefined,
    };
    render(<ApprovalCard approval={approval} {...props} onDecide={vi.fn()} />);
    expect(screen.getByTestId('approve').textContent).toBe('Approve onceA');
    expect(screen.getByText('A checkpoint is taken before an approved command runs.')).not.toBeNull();
    cleanup();
    const held = { ...approval, tool: 'write_file', isWithoutCheckpoint: true };
    render(<ApprovalCard approval={held} {...props} onDecide={vi.fn()} />);
    expect(screen.getByTestId('approve').textContent).toBe('Approve without a checkpointA');
    expect(screen.getByTestId('approval-no-checkpoint').textContent).toBe(
      'Vigil could not checkpoint before this call: if you approve it, its change cannot be undone.',
    );
    expect(screen.queryByText('A checkpoint is taken before an approved command runs.')).toBeNull();
  });
});
