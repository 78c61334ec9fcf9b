import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlanConfirmation } from './plan-confirmation';

afterEach(cleanup);

describe('PlanConfirmation', () => {
  it('lists what happens to each file, flags edits made outside agents, and accepts with Enter on the focused button', () => {
    const onConfirm = vi.fn();
    render(
      <PlanConfirmation
        title="Restore all"
        files={[
          { path: 'src/a.ts', action: 'restore', isChangedOutside: true },
          { path: 'new.ts', action: 'delete', isChangedOutside: false },
          { path: 'node_modules/x', action: 'skip', reason: 'excluded', isChangedOutside: false },
        ]}
        confirmLabel="Restore 2 files"
        isApplying={false}
        onConfirm={onConfirm}
        onCancel={vi.fn()}
      />,
    );
    expect(screen.getByTestId('plan-headline').textContent).toBe('1 to restore · 1 to delete · 1 skipped');
    expect(screen.getByTestId('plan-outside-warning').textContent).toContain('1 file was edited outside Vigil');
    expect(screen.getByTestId('plan-skip').textContent).toContain('excluded');
    const confirm = screen.getByTestId('plan-confirm');
    expect(document.activeElement).toBe(confirm);
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it('says so, and cannot be applied, when nothing would change', () => {
    render(
      <PlanConfirmation
        title="Restore"
        files={[{ path: 'a', action: 'skip', reason: 'already matches', isChangedOutside: false }]}
        confirmLabel="Restore"
        isApplying={false}
        onConfirm={vi.fn()}
        onCancel={vi.fn()}
      />,
    );
    expect(screen.getByTestId('plan-nothing').textContent).toContain('nothing to restore');
    expect(screen.getByTestId<HTMLButtonElement>('plan-confirm').disabled).toBe(true);
  });

  it('cancels with Escape, but not while applying', () => {
    const onCancel = vi.fn();
    const files = [{ path: 'a', action: 'restore' as const, isChangedOutside: false }];
    const { rerender } = render(
      <PlanConfirmation
        title="Restore"
        files={files}
        confirmLabel="Restore"
        isApplying
        onConfirm={vi.fn()}
        onCancel={onCancel}
      />,
    );
    fireEvent.keyDown(screen.getByTestId('plan'), { key: 'Escape' });
    expect(onCancel).not.toHaveBeenCalled();
    rerender(
      <PlanConfirmation
        title="Restore"
        files={files}
        confirmLabel="Restore"
        isApplying={false}
        onConfirm={vi.fn()}
        onCancel={onCancel}
      />,
    );
    fireEvent.keyDown(screen.getByTestId('plan'), { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledOnce();
  });
});
