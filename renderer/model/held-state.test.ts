import { describe, expect, it } from 'vitest';
import { heldState } from './held-state';
import type { TimelineEntry } from './timeline-filter';

function entry(reason: string, overrides: Partial<TimelineEntry> = {}): TimelineEntry {
  return {
    id: 'c1',
    dir: '/w/memories',
    time: '2026-11-22T10:00:00.000Z',
    reason,
    attribution: {},
    kind: 'checkpoint',
    stats: { files: 1, insertions: 1, deletions: 0 },
    skipped: [],
    tree: 't',
    source: 'vigil',
    ...overrides,
  };
}

const agent = { sessionId: 's1', agent: 'alpha', turn: 2 };

describe('what a checkpoint holds, said plainly', () => {
  it('an outside edit of a memory file holds the state after it; an agent\u2019s memory write, the state before it', () => {
    expect(heldState(entry('external edit of MEMORY.md'))).toEqual({
      when: 'after',
      text: 'state after the outside edit',
    });
    expect(heldState(entry('before memory: add', { attribution: agent }))).toEqual({
      when: 'before',
      text: "state before the agent's write",
    });
    expect(heldState(entry('after memory: add', { attribution: agent }))).toEqual({
      when: 'after',
      text: "state after the agent's write",
    });
    expect(heldState(entry('before memory: replace', { attribution: { actor: 'app' } }))?.text).toBe(
      'state before your write',
    );
  });

  it('says the same for the other reasons a folder has checkpoints', () => {
    expect(heldState(entry('before write_file', { attribution: agent }))?.text).toBe("state before the agent's write");
    expect(heldState(entry('before terminal: rm -rf x', { attribution: agent }))?.text).toBe(
      "state before the agent's command",
    );
    expect(heldState(entry('restore of USER.md'))).toEqual({ when: 'after', text: 'state after the restore' });
    expect(heldState(entry('change of USER.md by another Vigil process'))?.when).toBe('after');
    expect(heldState(entry('memory at start-up'))?.when).toBe('at');
    expect(heldState(entry('manual checkpoint'))).toEqual({ when: 'at', text: 'state when taken by hand' });
    expect(heldState(entry('pre-rollback snapshot (restoring to 1a2b3c4d)', { kind: 'pre-rollback' }))?.text).toBe(
      'state before the restore',
    );
    expect(heldState(entry('before patch', { source: 'hermes' }))?.text).toBe("state before Hermes Agent's write");
    expect(heldState(entry('something else'))).toBeUndefined();
    // A burst captured once: the state after all of it.
    expect(heldState(entry('after memory: add; external edit of MEMORY.md'))).toEqual({
      when: 'after',
      text: 'state after a memory write and the outside edit',
    });
    expect(heldState(entry('before memory: add; something else'))).toBeUndefined();
  });
});
