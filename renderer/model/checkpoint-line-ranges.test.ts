import { describe, expect, it } from 'vitest';
import { sourceRanges } from './checkpoint-line-ranges';
import { spanPick, toggleAtCursor } from './line-cursor';
import type { LineSelection } from './line-selection';
import { linesToRestore } from './lines-to-restore';
import { stackedRows, type StackedFile } from './stacked-rows';
import type { UnifiedHunk } from './diff-rows';

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

function rowsOf(hunks: readonly UnifiedHunk[]) {
  const diffs = new Map([
    ['a.txt', { load: ready, diff: { kind: 'text', hunks, omittedLines: 0, newOid: 'b'.repeat(40) } }],
  ]);
  const rows = stackedRows([file], diffs);
  const at = (key: string): number => rows.findIndex((row) => row.kind === 'line' && row.key === key);
  return { rows, diffs, at };
}

const rewritten = rowsOf([
  {
    oldStart: 1,
    oldLines: 4,
    newStart: 1,
    newLines: 5,
    lines: [' one', '-two', '-three', '+TWO', '+THREE', '+extra', ' four'],
  },
  { oldStart: 9, oldLines: 1, newStart: 10, newLines: 1, lines: ['-nine', '+NINE'] },
]);

const keysOf = (pick: LineSelection | undefined): ReadonlySet<string> => pick?.keys ?? new Set();

describe('lines picked between two checkpoints, as lines of the one restored from', () => {
  it('a pick on either side of a rewritten block is that block of the chosen version', () => {
    const { rows, at } = rewritten;
    const fromNewSide = keysOf(spanPick(rows, at('n2'), at('n2')));
    const fromOldSide = keysOf(spanPick(rows, at('o3'), at('o3')));
    expect(sourceRanges(rows, 'a.txt', fromNewSide, 'old')).toEqual([{ from: 2, to: 2 }]);
    expect(sourceRanges(rows, 'a.txt', fromNewSide, 'new')).toEqual([{ from: 2, to: 2 }]);
    // The old block's last line brings the extra new line: the old side's line 3, the new side's lines 3–4.
    expect(sourceRanges(rows, 'a.txt', fromOldSide, 'old')).toEqual([{ from: 3, to: 3 }]);
    expect(sourceRanges(rows, 'a.txt', fromOldSide, 'new')).toEqual([{ from: 3, to: 4 }]);
    const whole = keysOf(spanPick(rows, at('o2'), at('n4')));
    expect(sourceRanges(rows, 'a.txt', whole, 'old')).toEqual([{ from: 2, to: 3 }]);
    expect(sourceRanges(rows, 'a.txt', whole, 'new')).toEqual([{ from: 2, to: 4 }]);
  });

  it('changes in different hunks stay apart (the lines between are not shown); one run of lines is one range', () => {
    const { rows, at } = rewritten;
    const both = keysOf(toggleAtCursor(toggleAtCursor(undefined, rows, at('o2')), rows, at('o9')));
    expect(sourceRanges(rows, 'a.txt', both, 'old')).toEqual([
      { from: 2, to: 2 },
      { from: 9, to: 9 },
    ]);
  });

  it('unchanged lines shown between two picked changes join them; a change left unpicked keeps them apart', () => {
    const { rows, at } = rowsOf([
      { oldStart: 1, oldLines: 6, newStart: 1, newLines: 6, lines: ['-b', '+B', ' c', '-d', '+D', ' e', '-f', '+F'] },
    ]);
    const first = toggleAtCursor(undefined, rows, at('o1'));
    expect(sourceRanges(rows, 'a.txt', keysOf(toggleAtCursor(first, rows, at('o3'))), 'old')).toEqual([
      { from: 1, to: 3 },
    ]);
    expect(sourceRanges(rows, 'a.txt', keysOf(toggleAtCursor(first, rows, at('o5'))), 'old')).toEqual([
      { from: 1, to: 1 },
      { from: 5, to: 5 },
    ]);
  });

  it('a line the restored version does not have stands for the lines around it there', () => {
    const { rows, at } = rowsOf([{ oldStart: 4, oldLines: 2, newStart: 4, newLines: 3, lines: [' d', '+x', ' e'] }]);
    expect(sourceRanges(rows, 'a.txt', keysOf(toggleAtCursor(undefined, rows, at('n5'))), 'old')).toEqual([
      { from: 4, to: 5 },
    ]);
    expect(sourceRanges(rows, 'a.txt', keysOf(toggleAtCursor(undefined, rows, at('n5'))), 'new')).toEqual([
      { from: 5, to: 5 },
    ]);
  });

  it('asks the core for rows against the live file, and for ranges of the open checkpoint against another one', () => {
    const { rows, at, diffs } = rewritten;
    const pick = spanPick(rows, at('o2'), at('n4'));
    if (pick === undefined) throw new Error('no pick');
    expect(linesToRestore({ kind: 'live' }, file, diffs, pick)).toEqual({
      path: 'a.txt',
      lines: { kind: 'rows', selection: { old: [{ from: 2, to: 3 }], new: [{ from: 2, to: 4 }] } },
      basis: 'b'.repeat(40),
    });
    // The other checkpoint is older: the open one is the diff's new side.
    expect(linesToRestore({ kind: 'checkpoint', isOlder: true }, file, diffs, pick)).toEqual({
      path: 'a.txt',
      lines: { kind: 'ranges', ranges: [{ from: 2, to: 4 }] },
      basis: undefined,
    });
    expect(linesToRestore({ kind: 'checkpoint', isOlder: false }, file, diffs, pick)?.lines).toEqual({
      kind: 'ranges',
      ranges: [{ from: 2, to: 3 }],
    });
  });
});
