import { describe, expect, it } from 'vitest';
import { detectDrift } from './memory-drift';
import { entriesChars, joinEntries, parseEntries, splitEntries, usageOf } from './memory-format';

describe('the memory file format', () => {
  it('joins entries with "\\n§\\n", no trailing newline, and reads them back', () => {
    const text = joinEntries(['one', 'two\nlines', 'three']);
    expect(text).toBe('one\n§\ntwo\nlines\n§\nthree');
    expect(parseEntries(text)).toEqual(['one', 'two\nlines', 'three']);
    expect(parseEntries('')).toEqual([]);
    expect(parseEntries(' \n ')).toEqual([]);
  });

  it('collapses exact duplicates on load, keeping the first', () => {
    expect(parseEntries('a\n§\nb\n§\na')).toEqual(['a', 'b']);
    expect(splitEntries('a\n§\nb\n§\na')).toEqual(['a', 'b', 'a']);
  });

  it('counts the delimiters and code points toward the limit', () => {
    expect(entriesChars(['ab', 'cd'])).toBe(7);
    expect(entriesChars(['👍', '👍👍'])).toBe(6);
    expect(usageOf(['x'.repeat(1100)], 2200)).toEqual({ chars: 1100, limit: 2200, percent: 50 });
    expect(usageOf(['x'.repeat(3000)], 2200).percent).toBe(100);
  });
});

describe('the drift check (seed 003)', () => {
  it('accepts tool-shaped files, empty and duplicate ones included', () => {
    expect(detectDrift('', 2200).isDrifted).toBe(false);
    expect(detectDrift('one', 2200).isDrifted).toBe(false);
    expect(detectDrift(joinEntries(['one', 'two', 'three']), 2200).isDrifted).toBe(false);
    expect(detectDrift('a\n§\nb\n§\na', 2200).isDrifted).toBe(false);
    // Whitespace only (an editor saved an empty file with a newline): nothing a write could lose.
    expect(detectDrift('\n', 2200).isDrifted).toBe(false);
    expect(detectDrift(' \n\t\n', 2200).isDrifted).toBe(false);
  });

  it('flags a file that would not survive a parse and re-join', () => {
    for (const text of ['one\n', 'one\n§\ntwo\n', '\none', 'one \n§\ntwo', 'one\n§\n\n§\ntwo', 'one\n§\n']) {
      const report = detectDrift(text, 2200);
      expect(report.isDrifted, JSON.stringify(text)).toBe(true);
      expect(report.reasons.map((reason) => reason.kind)).toContain('not-round-trip');
    }
    expect(detectDrift('one\n', 2200).reasons[0]?.message).toContain('ends with whitespace or a newline');
  });

  it('flags one entry longer than the whole file may be, counted in code points', () => {
    expect(detectDrift('x'.repeat(2200), 2200).isDrifted).toBe(false);
    const report = detectDrift('x'.repeat(2201), 2200);
    expect(report.reasons.map((reason) => reason.kind)).toEqual(['entry-over-limit']);
    expect(report.reasons[0]?.message).toContain('2,201 characters');
    // 1,100 emoji are 2,200 UTF-16 units but 1,100 characters: within a 1,375 limit.
    expect(detectDrift('👍'.repeat(1100), 1375).isDrifted).toBe(false);
    expect(detectDrift('👍'.repeat(1376), 1375).isDrifted).toBe(true);
  });

  it('flags delimiters written with Windows line endings or spaces, which would merge entries', () => {
    const crlf = 'first fact\r\n§\r\nsecond fact';
    expect(splitEntries(crlf)).toHaveLength(1);
    expect(detectDrift(crlf, 2200).reasons.map((reason) => reason.kind)).toEqual(['stray-delimiter']);
    expect(detectDrift('first\n§ \nsecond', 2200).reasons.map((reason) => reason.kind)).toEqual(['stray-delimiter']);
    expect(detectDrift('costs 5 § per unit', 2200).isDrifted).toBe(false);
  });
});
