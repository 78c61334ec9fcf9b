import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DiffView, diffPageRows, type FileDiffContent } from './diff-view';

afterEach(cleanup);

const base: FileDiffContent = {
  path: 'a.txt',
  status: 'modified',
  isBinary: false,
  hunks: [],
  isTruncated: false,
  fromLabel: '1a2b3c4d',
  toLabel: 'live',
};

describe('DiffView', () => {
  it('marks binary files instead of showing their bytes', () => {
    render(<DiffView diff={{ ...base, isBinary: true }} />);
    expect(screen.getByTestId('diff-binary').textContent).toContain('Binary file');
    expect(screen.queryByRole('table')).toBeNull();
  });

  // Renders over a thousand rows in jsdom: slow on a busy machine, hence the roomier timeout.
  it('draws a long diff a page at a time', { timeout: 30_000 }, () => {
    const lines = Array.from({ length: diffPageRows + 500 }, (_, index) => `+line ${index}`);
    const { container } = render(
      <DiffView
        diff={{ ...base, hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: lines.length, lines }] }}
      />,
    );
    // Counted by selector: role queries over thousands of cells are slow in jsdom.
    expect(container.querySelectorAll('[role="row"]')).toHaveLength(diffPageRows);
    // Each row holds its two line numbers and its text as cells, as a table's rows must.
    expect(container.querySelectorAll('[role="row"] > [role="cell"]')).toHaveLength(diffPageRows * 3);
    fireEvent.click(screen.getByText(/Show 501 more lines/, { selector: 'button' }));
    expect(container.querySelectorAll('[role="row"]')).toHaveLength(diffPageRows + 501);
    expect(screen.queryByText(/more lines/, { selector: 'button' })).toBeNull();
  });

  it('says when the engine cut the diff short', () => {
    render(<DiffView diff={{ ...base, isTruncated: true, truncatedNote: '4,000 more diff lines are not shown.' }} />);
    expect(screen.getByText('4,000 more diff lines are not shown.')).toBeTruthy();
  });
});
