import { describe, expect, it } from 'vitest';
import { dragLine, pressLine, releaseLine, toggleHunk, toRowSelection } from './line-selection';
import { stackedRows, type StackedDiffState, type StackedFile } from './stacked-rows';

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

describe('line selection in the stacked diff', () => {
  it('picks the changed lines a drag crosses and what stands for them on the other side, within one file', () => {
    let pick = pressLine(undefined, rows, at('a.txt', 'o3'), false);
    pick = dragLine(pick, rows, at('a.txt', 'n2'));
    // Crossing into the next file does not extend the pick.
    pick = dragLine(pick, rows, at('b.txt', 'n2'));
    pick = releaseLine(pick);
    expect(pick?.path).toBe('a.txt');
    // o3 (the change's last old line) brings its counterpart n3 and the extra line after it (n4);
    // n2 brings its counterpart o2: the whole change goes back, as `--lines 2-3` would.
    expect(toRowSelection(pick ?? { path: '', keys: new Set() })).toEqual({
      old: [{ from: 2, to: 3 }],
      new: [{ from: 2, to: 4 }],
    });
  });

  it('a line picked on either side restores the same thing: its old version in place of the new one', () => {
    const fromOld = releaseLine(pressLine(undefined, rows, at('a.txt', 'o2'), false));
    const fromNew = releaseLine(pressLine(undefined, rows, at('a.txt', 'n2'), false));
    expect(toRowSelection(fromOld ?? { path: '', keys: new Set() })).toEqual({
      old: [{ from: 2, to: 2 }],
      new: [{ from: 2, to: 2 }],
    });
    expect(toRowSelection(fromNew ?? { path: '', keys: new Set() })).toEqual(
      toRowSelection(fromOld ?? { path: '', keys: new Set() }),
    );
    // The extra new line alone stands for nothing old: it is taken out, nothing is put back.
    const extra = releaseLine(pressLine(undefined, rows, at('a.txt', 'n4'), false));
    expect(toRowSelection(extra ?? { path: '', keys: new Set() })).toEqual({ old: [], new: [{ from: 4, to: 4 }] });
  });

  it('picks a whole hunk, and unpicks it the second time; Shift adds to a pick', () => {
    let pick = toggleHunk(undefined, rows, 'a.txt', 1);
    expect([...(pick?.keys ?? [])]).toEqual(['o9', 'n10']);
    pick = releaseLine(pressLine(pick, rows, at('a.txt', 'o2'), true));
    expect(toRowSelection(pick ?? { path: '', keys: new Set() })).toEqual({
      old: [
        { from: 2, to: 2 },
        { from: 9, to: 9 },
      ],
      new: [
        { from: 2, to: 2 },
        { from: 10, to: 10 },
      ],
    });
    expect(toggleHunk(toggleHunk(undefined, rows, 'a.txt', 0), rows, 'a.txt', 0)).toBeUndefined();
  });

  it('a drag keeps to the line it started on when the rows are drawn again meanwhile (a file above loads its hunks again)', () => {
    const loaded: StackedDiffState = { load: ready, diff: { kind: 'text', hunks, omittedLines: 0 } };
    const above = stackedRows(
      [other, file],
      new Map([
        ['b.txt', loaded],
        ['a.txt', loaded],
      ]),
    );
    const reloading = stackedRows(
      [other, file],
      new Map<string, StackedDiffState>([
        ['b.txt', { load: { kind: 'loading' }, diff: undefined }],
        ['a.txt', loaded],
      ]),
    );
    const atIn = (list: typeof rows, key: string): number =>
      list.findIndex((row) => row.kind === 'line' && row.path === 'a.txt' && row.key === key);
    const pick = pressLine(undefined, above, atIn(above, 'o2'), false);
    // b.txt above now has no lines: a.txt's rows moved up, and the drag still starts at a.txt's line 2.
    const dragged = releaseLine(dragLine(pick, reloading, atIn(reloading, 'o3')));
    expect(toRowSelection(dragged ?? { path: '', keys: new Set() })).toEqual({
      old: [{ from: 2, to: 3 }],
      new: [{ from: 2, to: 4 }],
    });
  });

  it('while the file’s lines are loading again, the pointer over what stands in for them leaves the pick as it was', () => {
    let pick = pressLine(undefined, rows, at('a.txt', 'o2'), false);
    pick = dragLine(pick, rows, at('a.txt', 'o3'));
    const reloading = stackedRows([file, other], new Map([['a.txt', { load: { kind: 'loading' }, diff: undefined }]]));
    const header = reloading.findIndex((row) => row.path === 'a.txt' && row.kind === 'notice');
    expect(header).not.toBe(-1);
    expect(dragLine(pick, reloading, header)).toBe(pick);
    for (let index = 0; index < reloading.length; index += 1) expect(dragLine(pick, reloading, index)).toBe(pick);
    // The lines are back: the drag goes on from where it started.
    expect([...(dragLine(pick, rows, at('a.txt', 'o2'))?.keys ?? [])].sort()).toEqual(['n2', 'o2']);
  });

  it('a move that does not change the pick gives back the same selection (nothing to draw again)', () => {
    const pick = dragLine(pressLine(undefined, rows, at('a.txt', 'o2'), false), rows, at('a.txt', 'o3'));
    expect(dragLine(pick, rows, at('a.txt', 'o3'))).toBe(pick);
    expect(dragLine(pick, rows, at('a.txt', 'n3'))).toBe(pick);
    expect(dragLine(pick, rows, at('a.txt', 'c1'))).not.toBe(pick);
  });

  it('a press on a context line picks nothing', () => {
    expect(releaseLine(pressLine(undefined, rows, at('a.txt', 'c1'), false))).toBeUndefined();
  });
});
