import { describe, expect, it } from 'vitest';
import {
  filterTimeline,
  isFilterEmpty,
  matchesFilter,
  mergeEntries,
  noTimelineFilter,
  reasonCategory,
  actorsInTimeline,
  type TimelineEntry,
} from './timeline-filter';

let counter = 0;
function entry(overrides: Partial<TimelineEntry> & { readonly minute: number }): TimelineEntry {
  counter += 1;
  const { minute, ...rest } = overrides;
  return {
    id: `${String(counter).padStart(4, '0')}${'a'.repeat(36)}`,
    dir: '/w/p',
    time: `2026-11-22T10:${String(minute).padStart(2, '0')}:00.000Z`,
    reason: 'before write_file',
    attribution: {},
    kind: 'checkpoint',
    stats: { files: 1, insertions: 1, deletions: 0 },
    skipped: [],
    tree: 't'.repeat(40),
    source: 'vigil',
    ...rest,
  };
}

describe('reason categories', () => {
  it('groups by tool first, then by the reason words', () => {
    expect(reasonCategory(entry({ minute: 1, attribution: { tool: 'patch' }, reason: 'x' }))).toBe('edit');
    expect(reasonCategory(entry({ minute: 1, reason: 'before terminal: rm -rf build' }))).toBe('terminal');
    expect(
      reasonCategory(
        entry({ minute: 1, reason: 'pre-rollback snapshot (restoring to 1a2b3c4d)', kind: 'pre-rollback' }),
      ),
    ).toBe('restore-point');
    expect(reasonCategory(entry({ minute: 1, reason: 'manual checkpoint' }))).toBe('manual');
    expect(
      reasonCategory(entry({ minute: 1, reason: 'before memory replace', attribution: { sessionId: 's1' } })),
    ).toBe('memory');
    expect(reasonCategory(entry({ minute: 1, reason: 'something else' }))).toBe('other');
    // The agents' own tools, checkpointed through their hooks.
    expect(
      reasonCategory(entry({ minute: 1, reason: 'before Edit', attribution: { tool: 'Edit', sessionId: 's2' } })),
    ).toBe('edit');
    expect(
      reasonCategory(entry({ minute: 1, reason: 'before replace', attribution: { tool: 'replace', sessionId: 's3' } })),
    ).toBe('edit');
    expect(
      reasonCategory(
        entry({ minute: 1, reason: 'before terminal: rm -rf legacy', attribution: { tool: 'Bash', sessionId: 's2' } }),
      ),
    ).toBe('terminal');
  });

  it('counts a checkpoint taken by hand as "By hand" whatever its reason says (vigil checkpoint DIR --reason R)', () => {
    expect(reasonCategory(entry({ minute: 1, reason: 'before the refactor', attribution: { origin: 'manual' } }))).toBe(
      'manual',
    );
    expect(reasonCategory(entry({ minute: 1, reason: 'before patch', attribution: { origin: 'manual' } }))).toBe(
      'manual',
    );
  });
});

describe('filtering', () => {
  const a1 = entry({ minute: 3, attribution: { sessionId: 's1', agent: 'claude', tool: 'write_file', turn: 2 } });
  const b1 = entry({
    minute: 2,
    attribution: { sessionId: 's2', agent: 'codex', tool: 'terminal' },
    reason: 'before terminal: make clean',
  });
  const manual = entry({ minute: 1, reason: 'manual checkpoint' });
  const all = [a1, b1, manual];

  it('an empty filter returns the very same array', () => {
    expect(isFilterEmpty(noTimelineFilter)).toBe(true);
    expect(filterTimeline(all, noTimelineFilter)).toBe(all);
  });

  it('filters by actor: a session by its id, the others by their kind', () => {
    expect(filterTimeline(all, { ...noTimelineFilter, actors: ['s2'] })).toEqual([b1]);
    // An old checkpoint by hand names no actor: Vigil took it, for whomever.
    expect(filterTimeline(all, { ...noTimelineFilter, actors: ['s1', '@vigil'] })).toEqual([a1, manual]);
    const byApp = entry({ minute: 4, reason: 'manual checkpoint', attribution: { origin: 'manual', actor: 'app' } });
    expect(filterTimeline([byApp, ...all], { ...noTimelineFilter, actors: ['@app'] })).toEqual([byApp]);
  });

  it('filters by reason group and by text in reason, tool, agent or id', () => {
    expect(filterTimeline(all, { ...noTimelineFilter, reason: 'terminal' })).toEqual([b1]);
    expect(filterTimeline(all, { ...noTimelineFilter, text: 'MAKE' })).toEqual([b1]);
    expect(filterTimeline(all, { ...noTimelineFilter, text: 'claude' })).toEqual([a1]);
    expect(matchesFilter(a1, { ...noTimelineFilter, text: a1.id.slice(0, 6) })).toBe(true);
    expect(filterTimeline(all, { actors: ['s1'], reason: 'terminal', text: '' })).toEqual([]);
  });

  it('lists the actors of a timeline with their counts', () => {
    expect(actorsInTimeline(all)).toEqual([
      {
        key: 's1',
        actor: { kind: 'session', sessionId: 's1', agent: 'claude', tool: 'write_file', turn: 2 },
        count: 1,
      },
      { key: 's2', actor: { kind: 'session', sessionId: 's2', agent: 'codex', tool: 'terminal' }, count: 1 },
      { key: '@vigil', actor: { kind: 'vigil' }, count: 1 },
    ]);
  });
});

describe('merging', () => {
  const old = [entry({ minute: 30 }), entry({ minute: 20 }), entry({ minute: 10 })];

  it('puts live checkpoints in front and older pages behind, without duplicates', () => {
    const live = entry({ minute: 40 });
    const page = entry({ minute: 5 });
    expect(mergeEntries(old, [live, old[0] as TimelineEntry], 'newer')).toEqual([live, ...old]);
    expect(mergeEntries(old, [page, old[2] as TimelineEntry], 'older')).toEqual([...old, page]);
    expect(mergeEntries(old, [old[1] as TimelineEntry], 'newer')).toBe(old);
  });

  it('keeps the engine order when times tie (one-second commit times)', () => {
    const same = [entry({ minute: 50, reason: 'second' }), entry({ minute: 50, reason: 'first' })];
    expect(mergeEntries([], same, 'older').map((item) => item.reason)).toEqual(['second', 'first']);
  });
});
