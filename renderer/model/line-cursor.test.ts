import { describe, expect, it } from 'vitest';
import { describeCursor, moveCursor, spanPick, toggleAtCursor } from './line-cursor';
import { pressLine, dragLine, releaseLine, toRowSelection, type LineSelection } from './line-selection';
import { stackedRows, type StackedFile } from './stacked-rows';

const ready = { kind: 'ready' } as const;
const file: StackedFile = {
  path: 'a.txt',
  status: 'modified',
  kind: 'text',
  oldMode: '100644',
  newMode: '100644',
  additions: 3,
  deletions: 2,
};
const other: StackedFile = { ...file, path: 'b.txt' };
const hunks = [
  {
    oldStart: 1,
    oldLines: 4,
    newStart: 1,
    newLines: 5,
    lines: [' one', '-two', '-three', '+TWO', '+THREE', '+extra', ' four'],
  },
  { oldStart: 9, oldLines: 1, newStart: 10, newLines: 1, lines: ['-nine', '+NINE'] },
];
const rows = stackedRows(
  [file, other],
  new Map([
    ['a.txt', { load: ready, diff: { kind: 'text', hunks, omittedLines: 0 } }],
    ['b.txt', { load: ready, diff: { kind: 'text', hunks, omittedLines: 0 } }],
  ]),
);
const at = (path: string, key: string): number =>
  rows.findIndex((row) => row.kind === 'line' && row.path === path && row.key === key);
const keyAt = (index: number | undefined): string => {
  const row = index === undefined ? undefined : rows[index];
  return row?.kind === 'line' ? `${row.path}:${row.key}` : String(row?.kind);
};
const ranges = (pick: LineSelection | undefined) => toRowSelection(pick ?? { path: '', keys: new Set() });

describe('the keyboard cursor of the stacked diff', () => {
  it('starts on the first line in view, moves line by line over headers, and stays at the ends', () => {
    expect(keyAt(moveCursor(rows, undefined, 1, 'line', 0))).toBe('a.txt:c1');
    expect(keyAt(moveCursor(rows, undefined, 1, 'line', at('b.txt', 'o2')))).toBe('b.txt:o2');
    // From the last line of a.txt's first hunk to its second hunk's first line (the hunk header is skipped).
    expect(keyAt(moveCursor(rows, at('a.txt', 'c4'), 1, 'line'))).toBe('a.txt:o9');
    // Across files.
    expect(keyAt(moveCursor(rows, at('a.txt', 'n10'), 1, 'line'))).toBe('b.txt:c1');
    expect(keyAt(moveCursor(rows, at('b.txt', 'c1'), -1, 'line'))).toBe('a.txt:n10');
    const last = at('b.txt', 'n10');
    expect(moveCursor(rows, last, 1, 'line')).toBe(last);
  });

  it('Alt moves change by change: to the first line of the next change, or back to the start of this one', () => {
    expect(keyAt(moveCursor(rows, at('a.txt', 'c1'), 1, 'change'))).toBe('a.txt:o2');
    expect(keyAt(moveCursor(rows, at('a.txt', 'o2'), 1, 'change'))).toBe('a.txt:o9');
    expect(keyAt(moveCursor(rows, at('a.txt', 'n3'), -1, 'change'))).toBe('a.txt:o2');
    expect(keyAt(moveCursor(rows, at('a.txt', 'o9'), -1, 'change'))).toBe('a.txt:o2');
    expect(keyAt(moveCursor(rows, at('a.txt', 'n10'), 1, 'change'))).toBe('b.txt:o2');
  });

  it('Shift extends the pick from the anchor to the cursor, as a drag over the same rows picks', () => {
    const keyboard = spanPick(rows, at('a.txt', 'o3'), at('a.txt', 'n2'));
    const drag = releaseLine(dragLine(pressLine(undefined, rows, at('a.txt', 'o3'), false), rows, at('a.txt', 'n2')));
    expect(ranges(keyboard)).toEqual(ranges(drag));
    expect(ranges(keyboard)).toEqual({ old: [{ from: 2, to: 3 }], new: [{ from: 2, to: 4 }] });
    // Over context only: nothing. Into another file: stops at the anchor file's edge.
    expect(spanPick(rows, at('a.txt', 'c1'), at('a.txt', 'c1'))).toBeUndefined();
    const across = spanPick(rows, at('a.txt', 'o9'), at('b.txt', 'o3'));
    expect(across?.path).toBe('a.txt');
    expect(ranges(across)).toEqual({ old: [{ from: 9, to: 9 }], new: [{ from: 10, to: 10 }] });
  });

  it('Space picks the change under the cursor with its counterpart, and unpicks it the second time', () => {
    const once = toggleAtCursor(undefined, rows, at('a.txt', 'n2'));
    expect(ranges(once)).toEqual({ old: [{ from: 2, to: 2 }], new: [{ from: 2, to: 2 }] });
    const more = toggleAtCursor(once, rows, at('a.txt', 'o9'));
    expect(ranges(more)).toEqual({
      old: [
        { from: 2, to: 2 },
        { from: 9, to: 9 },
      ],
      new: [
        { from: 2, to: 2 },
        { from: 10, to: 10 },
      ],
    });
    expect(toggleAtCursor(once, rows, at('a.txt', 'n2'))).toBeUndefined();
    // A context line is not a change: the pick stays.
    expect(toggleAtCursor(once, rows, at('a.txt', 'c1'))).toBe(once);
  });

  it('says where the cursor is, in words', () => {
    expect(describeCursor(rows[at('a.txt', 'o2')])).toBe('old line 2 of a.txt, removed: two');
    expect(describeCursor(rows[at('a.txt', 'n4')])).toBe('new line 4 of a.txt, added: extra');
    expect(describeCursor(rows[at('a.txt', 'c4')])).toBe('line 5 of a.txt, unchanged: four');
  });
});
