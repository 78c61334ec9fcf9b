import { describe, expect, it } from 'vitest';
import { editEntry, entriesUsage, mergeWithNext, removeEntry, splitEntryAt, splitEntryLines } from './adoption-entries';

describe('editing entries before adopting a file', () => {
  const entries = ['likes tea\n- remember the demo', 'uses pnpm', 'works in UTC+1'];

  it('splits an entry at the caret, and refuses a split that leaves an empty part', () => {
    expect(splitEntryAt(entries, 0, 'likes tea'.length)).toEqual([
      'likes tea',
      '- remember the demo',
      'uses pnpm',
      'works in UTC+1',
    ]);
    expect(splitEntryAt(entries, 1, 0)).toEqual(entries);
    expect(splitEntryAt(entries, 7, 1)).toEqual(entries);
  });

  it('splits an entry line by line, merges one with the next, edits and removes', () => {
    expect(splitEntryLines(['a\n\n b \nc'], 0)).toEqual(['a', 'b', 'c']);
    expect(mergeWithNext(entries, 1)).toEqual(['likes tea\n- remember the demo', 'uses pnpm\nworks in UTC+1']);
    expect(mergeWithNext(entries, 2)).toEqual(entries);
    expect(editEntry(entries, 1, 'uses npm')).toEqual(['likes tea\n- remember the demo', 'uses npm', 'works in UTC+1']);
    expect(removeEntry(entries, 0)).toEqual(['uses pnpm', 'works in UTC+1']);
  });

  it('counts usage as the file will hold it: code points, three per delimiter, empty entries dropped', () => {
    expect(entriesUsage(['ab', ' cd ', '   '], 10)).toEqual({ chars: 7, limit: 10, fits: true, empty: 1 });
    expect(entriesUsage(['👍', '👍👍'], 5)).toEqual({ chars: 6, limit: 5, fits: false, empty: 0 });
  });
});
