import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CheckpointRowActions } from './checkpoint-row-actions';

afterEach(cleanup);

describe('a timeline row’s own actions', () => {
  it('offers the rewind of its turn only on a checkpoint taken for a session’s turn, and keeps the row’s click', () => {
    const onRestoreAll = vi.fn();
    const onRewind = vi.fn();
    const onRowClick = vi.fn();
    render(
      <div onClick={onRowClick}>
        <CheckpointRowActions
          entry={{ kind: 'checkpoint', attribution: { sessionId: 'ses_1', turn: 3 } }}
          onRestoreAll={onRestoreAll}
          onRewind={onRewind}
        />
      </div>,
    );
    expect(screen.getByTestId('row-rewind').textContent).toBe('Rewind turn 3…');
    fireEvent.click(screen.getByTestId('row-rewind'));
    fireEvent.click(screen.getByTestId('row-restore'));
    expect(onRewind).toHaveBeenCalledTimes(1);
    expect(onRestoreAll).toHaveBeenCalledTimes(1);
    expect(onRowClick).not.toHaveBeenCalled();
  });

  it('has no rewind for a checkpoint by hand, a restore point, or one of Hermes Agent', () => {
    const entries = [
      { kind: 'checkpoint', attribution: {} },
      { kind: 'pre-rollback', attribution: { sessionId: 'ses_1', turn: 2 } },
      { kind: 'checkpoint', source: 'hermes', attribution: { sessionId: 'ses_1', turn: 2 } },
    ];
    for (const entry of entries) {
      render(<CheckpointRowActions entry={entry} onRestoreAll={vi.fn()} onRewind={vi.fn()} />);
      expect(screen.queryByTestId('row-rewind')).toBeNull();
      expect(screen.getByTestId('row-restore')).toBeTruthy();
      cleanup();
    }
  });
});
