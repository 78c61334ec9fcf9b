import { describe, expect, it } from 'vitest';
import { countChanges, diffRows } from './diff-rows';

describe('diff rows', () => {
  it('numbers context, added and removed lines on their own side', () => {
    const hunks = [
      {
        oldStart: 3,
        oldLines: 3,
        newStart: 3,
        newLines: 3,
        lines: [' keep', '-old', '+new', ' tail', '\\ No newline at end of file'],
      },
    ];
    expect(diffRows(hunks)).toEqual([
      { kind: 'hunk', text: '@@ -3,3 +3,3 @@' },
      { kind: 'context', oldNumber: 3, newNumber: 3, text: 'keep' },
      { kind: 'removed', oldNumber: 4, text: 'old' },
      { kind: 'added', newNumber: 4, text: 'new' },
      { kind: 'context', oldNumber: 5, newNumber: 5, text: 'tail' },
      { kind: 'note', text: 'No newline at end of file' },
    ]);
    expect(countChanges(hunks)).toEqual({ added: 1, removed: 1 });
  });

  it('starts every hunk from its own line numbers', () => {
    const rows = diffRows([
      { oldStart: 1, oldLines: 1, newStart: 1, newLines: 2, lines: [' a', '+b'] },
      { oldStart: 90, oldLines: 1, newStart: 91, newLines: 0, lines: ['-z'] },
    ]);
    expect(rows[4]).toEqual({ kind: 'removed', oldNumber: 90, text: 'z' });
  });
});
