import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RetentionSummary } from './retention-summary';

afterEach(cleanup);

describe('the timeline’s count and retention', () => {
  it('reads "N checkpoints · keeps the newest 50 · K pinned", and "x of N" under a filter', () => {
    const { container, rerender } = render(
      <RetentionSummary
        total={120}
        visible={120}
        isFiltered={false}
        isCurrent
        maxSnapshots={50}
        maxStoreMiB={500}
        pinned={3}
      />,
    );
    expect(container.textContent).toBe('120 checkpoints · keeps the newest 50 · 3 pinned');
    rerender(
      <RetentionSummary
        total={120}
        visible={12}
        isFiltered
        isCurrent={false}
        maxSnapshots={50}
        maxStoreMiB={500}
        pinned={0}
      />,
    );
    expect(screen.getByTestId('timeline-count').textContent).toBe('12 of 120 checkpoints');
    expect(screen.getByTestId('timeline-count').getAttribute('data-state')).toBe('not-current');
    expect(screen.getByTestId('timeline-pinned').textContent).toBe('0 pinned');
  });
});
