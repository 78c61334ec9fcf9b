import { describe, expect, it } from 'vitest';
import { errorCodes } from '../../shared/errors';
import { errorDetailLines, guidanceFor } from './error-guidance';
import { baseName, formatCountdown, formatRelativeTime, plural, relativeTo, shortId } from './format';
import { extendLanes, laneColumn, sessionColourClass, sessionColourIndex } from './session-lanes';

describe('formatting', () => {
  it('counts and ids read as a person writes them', () => {
    expect(plural(1, 'file')).toBe('1 file');
    expect(plural(12_000, 'file')).toBe('12,000 files');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
    expect(shortId('0123456789abcdef')).toBe('01234567');
  });

  it('relative times step from seconds to minutes to hours to the date', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(formatRelativeTime('2026-11-22T11:59:58Z', now)).toBe('just now');
    expect(formatRelativeTime('2026-11-22T11:59:18Z', now)).toBe('42 s ago');
    expect(formatRelativeTime('2026-11-22T11:55:00Z', now)).toBe('5 min ago');
    expect(formatRelativeTime('2026-11-22T09:00:00Z', now)).toBe('3 h ago');
    expect(formatRelativeTime('2026-11-20T09:00:00Z', now)).toMatch(/^2026-11-20 /);
    expect(formatRelativeTime('not a date', now)).toBe('not a date');
  });

  it('countdowns round up to the second and never go negative', () => {
    expect(formatCountdown(65_000)).toBe('1:05');
    expect(formatCountdown(8_100)).toBe('0:09');
    expect(formatCountdown(-5)).toBe('0:00');
    expect(formatCountdown(7_384_000)).toBe('2:03:04');
  });

  it('paths show relative to their root, on both separators', () => {
    expect(relativeTo('/w/project', '/w/project/src/a.ts')).toBe('src/a.ts');
    expect(relativeTo('/w/project', '/w/project')).toBe('.');
    expect(relativeTo('/w/project', '/w/projectx/a.ts')).toBe('/w/projectx/a.ts');
    expect(relativeTo('C:\\w', 'C:\\w\\a.ts')).toBe('a.ts');
    expect(baseName('/w/project/')).toBe('project');
    expect(baseName('C:\\w\\p')).toBe('p');
  });
});

describe('error guidance', () => {
  it('has a title and a way forward for every code', () => {
    for (const code of errorCodes) {
      const guidance = guidanceFor(code);
      expect(guidance.title.length, code).toBeGreaterThan(3);
      expect(guidance.remedy.length, code).toBeGreaterThan(20);
    }
  });

  it('lifts the helpful details (the drift backup) out of an error', () => {
    const lines = errorDetailLines({
      code: 'conflict',
      message: 'MEMORY.md drifted',
      details: { drift_backup: '/m/MEMORY.md.bak.1', remediation: 'Adopt it', internal: { a: 1 } },
    });
    expect(lines).toEqual([
      { label: 'Backup of the file', value: '/m/MEMORY.md.bak.1' },
      { label: 'What to do', value: 'Adopt it' },
    ]);
  });
});

describe('session lanes', () => {
  it('gives each session a lane in order of appearance and keeps them when more arrive', () => {
    const first = extendLanes(new Map(), ['s1', undefined, 's2', 's1']);
    expect([...first]).toEqual([
      ['s1', 0],
      ['s2', 1],
    ]);
    const second = extendLanes(first, ['s3', 's2']);
    expect(second.get('s1')).toBe(0);
    expect(second.get('s3')).toBe(2);
    expect(extendLanes(second, ['s1', 's3'])).toBe(second);
    expect(laneColumn(second, 's3', 2)).toBe(1);
  });

  it("derives a session's colour from its id alone: the same whatever order sessions appear in, and neutral for no session", () => {
    const ids = Array.from({ length: 40 }, (_, index) => `ses_${index.toString(36)}abc`);
    const colours = ids.map((id) => sessionColourClass(id));
    expect([...ids].reverse().map((id) => sessionColourClass(id))).toEqual([...colours].reverse());
    expect(new Set(colours).size).toBeGreaterThan(4);
    for (const id of ids) expect(sessionColourIndex(id)).toBeLessThan(8);
    // A fixed id has a fixed colour, in every window and after every restart.
    expect(sessionColourClass('ses_mwwalokc7ae82e0d60')).toBe('lane-6');
    expect(sessionColourClass(undefined)).toBe('lane-none');
    expect(sessionColourClass('')).toBe('lane-none');
  });
});
