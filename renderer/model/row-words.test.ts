import { describe, expect, it } from 'vitest';
import type { TurnBrief } from '../../shared/contract/sessions-contract';
import { changesAfter, oneLine, reasonChip, rowTitle, statsAfter } from './row-words';
import type { TimelineEntry } from './timeline-filter';
import { dayLabel, timelineItems } from './timeline-items';

function entry(id: string, overrides: Partial<TimelineEntry> = {}): TimelineEntry {
  return {
    id,
    dir: '/w/p',
    time: '2026-11-22T10:00:00.000Z',
    reason: 'before write_file',
    attribution: {},
    kind: 'checkpoint',
    stats: { files: 1, insertions: 2, deletions: 1 },
    skipped: [],
    tree: 't',
    source: 'vigil',
    ...overrides,
  };
}

const brief = (overrides: Partial<TurnBrief> = {}): TurnBrief => ({
  sessionId: 's1',
  turn: 3,
  calls: [],
  callCount: 0,
  effects: [],
  effectsOmitted: 0,
  ...overrides,
});

describe('one clean line', () => {
  it('keeps the first non-blank line, collapses spaces, escapes controls, and says more followed', () => {
    expect(oneLine('\n\n  Fix   the\ttests  \nthen the docs')).toBe('Fix the tests …');
    expect(oneLine('red \u001b[31malert\u001b[0m and a bell \u0007')).toBe(
      'red \\u001b[31malert\\u001b[0m and a bell \\u0007',
    );
    expect(oneLine('a\r\nb')).toBe('a …');
    expect(oneLine('   \n  ')).toBe('');
    const huge = oneLine('x'.repeat(100_000));
    expect(huge).toHaveLength(240);
    expect(huge.endsWith('…')).toBe(true);
  });
});

describe('row titles', () => {
  const session = { sessionId: 's1', turn: 3, tool: 'write_file', agent: 'alpha' };
  it("is the first line of the turn's user message when the agent sent one", () => {
    expect(
      rowTitle(entry('a', { attribution: session }), brief({ title: 'Fix the login\nIt fails on Safari' }), '/w/p'),
    ).toEqual({ text: 'Fix the login …', source: 'message' });
  });

  it("else the turn's calls in this directory, as a person says them", () => {
    const calls = [
      { name: 'terminal', summary: 'rm -rf legacy', decision: 'allowed' as const, directories: ['/w/p'] },
      { name: 'write_file', summary: '/w/p/src/app.ts', decision: 'allowed' as const, directories: ['/w/p'] },
      { name: 'write_file', summary: 'elsewhere.txt', decision: 'allowed' as const, directories: ['/w/other'] },
      { name: 'terminal', summary: 'rm -rf /', decision: 'blocked' as const, directories: [] },
    ];
    expect(rowTitle(entry('a', { attribution: session }), brief({ calls, callCount: 4 }), '/w/p')).toEqual({
      text: 'terminal: rm -rf legacy (+1 more)',
      source: 'calls',
    });
    expect(
      rowTitle(entry('a', { attribution: session }), brief({ calls: calls.slice(1, 2), callCount: 1 }), '/w/p').text,
    ).toBe('write_file src/app.ts');
    expect(
      rowTitle(
        entry('a', { attribution: session }),
        brief({
          calls: [{ name: 'memory', summary: 'add memory', decision: 'allowed', directories: [] }],
          callCount: 1,
        }),
        '/w/p',
      ).text,
    ).toBe('memory: add memory');
  });

  it('else the reason, in words for restore points and checkpoints by hand', () => {
    expect(rowTitle(entry('a', { reason: 'manual checkpoint' }), undefined, '/w/p')).toEqual({
      text: 'Checkpoint taken by hand',
      source: 'reason',
    });
    expect(
      rowTitle(
        entry('a', {
          kind: 'pre-rollback',
          restores: '1a2b3c4d5e',
          reason: 'pre-rollback snapshot (restoring to 1a2b3c4d)',
        }),
        undefined,
        '/w/p',
      ).text,
    ).toBe('Restore point taken before restoring 1a2b3c4d');
    expect(reasonChip(entry('a', { reason: 'before terminal: make', attribution: { tool: 'terminal' } })).label).toBe(
      'command',
    );
    expect(reasonChip(entry('a', { attribution: { origin: 'manual', actor: 'app' } })).label).toBe('by hand');
  });
});

describe('what the stats measure', () => {
  it("are the next checkpoint's counts (the changes after this one), or the live folder's for the newest", () => {
    const older = entry('old');
    const newer = entry('new', { parent: 'old', stats: { files: 2, insertions: 0, deletions: 2 } });
    const after = changesAfter([newer, older]);
    expect(statsAfter(older, false, after, { counts: undefined, state: 'unknown' })).toEqual({
      scope: 'next',
      counts: { files: 2, insertions: 0, deletions: 2 },
    });
    expect(
      statsAfter(newer, true, after, { counts: { files: 1, insertions: 1, deletions: 1 }, state: 'current' }),
    ).toEqual({
      scope: 'live',
      counts: { files: 1, insertions: 1, deletions: 1 },
      note: 'comparing with the live folder…',
    });
    // Not connected: no figure is shown as current.
    expect(
      statsAfter(newer, true, after, { counts: { files: 1, insertions: 1, deletions: 1 }, state: 'offline' }),
    ).toEqual({ scope: 'live', counts: undefined, note: 'live changes not known: not connected' });
    expect(statsAfter(entry('lone'), false, after, { counts: undefined, state: 'unknown' })).toBeUndefined();
  });
});

describe('timeline rows', () => {
  it('puts a heading before each day and groups the checkpoints of one turn under it', () => {
    const turn = { sessionId: 's1', turn: 4 };
    const entries = [
      entry('d', { time: '2026-11-22T12:00:00', attribution: turn }),
      entry('c', { time: '2026-11-22T11:00:00', attribution: turn }),
      entry('b', { time: '2026-11-22T10:00:00', attribution: { sessionId: 's1', turn: 3 } }),
      entry('a', { time: '2026-11-21T10:00:00', attribution: { sessionId: 's1', turn: 3 } }),
    ];
    const items = timelineItems(entries, new Date('2026-11-22T15:00:00').getTime());
    expect(
      items.map((item) =>
        item.kind === 'entry'
          ? `${item.entry.id}${item.isInTurn ? '*' : ''}`
          : item.kind === 'day'
            ? item.label
            : `turn ${item.count}`,
      ),
    ).toEqual(['Today · Sun 22 Nov 2026', 'turn 2', 'd*', 'c*', 'b', 'Yesterday · Sat 21 Nov 2026', 'a']);
    expect(dayLabel('2026-11-02T10:00:00', new Date('2026-11-22T15:00:00').getTime())).toBe('Mon 2 Nov 2026');
  });
});
