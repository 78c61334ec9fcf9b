import { describe, expect, it } from 'vitest';
import {
  changedPaths,
  describeRestore,
  planFilesOf,
  restoreHeadline,
  restoreProblems,
  type RestoreResult,
} from './restore-plan';
import type { TimelineEntry } from './timeline-filter';
import { timelineColumns } from './timeline-columns';

describe('restore plans for people', () => {
  it('gives each skip its reason in words, and keeps the engine note first', () => {
    expect(
      planFilesOf([
        { path: 'a', action: 'skip', reason: 'excluded', isChangedOutsideAgents: false },
        {
          path: 'b',
          action: 'skip',
          reason: 'blocked',
          note: 'a file named b/ is in the way',
          isChangedOutsideAgents: false,
        },
        { path: 'c', action: 'restore', isChangedOutsideAgents: true },
      ]),
    ).toEqual([
      {
        path: 'a',
        action: 'skip',
        reason: 'excluded (dependencies, build output, secrets): never touched',
        isChangedOutside: false,
      },
      { path: 'b', action: 'skip', reason: 'a file named b/ is in the way', isChangedOutside: false },
      { path: 'c', action: 'restore', reason: undefined, isChangedOutside: true },
    ]);
  });

  it('undoes only what the restore changed, and says what happened', () => {
    const brief = { id: 'c'.repeat(40), reason: 'before write_file', time: '2026-01-01T00:00:00Z' };
    const result: RestoreResult = {
      plan: {
        dir: '/w',
        checkpoint: brief,
        paths: [],
        entries: [],
        counts: { restore: 2, recreate: 0, delete: 1, skip: 1 },
        changedOutsideAgents: 0,
        fingerprint: 'f'.repeat(64),
      },
      preRollback: brief,
      outcomes: [
        { path: 'a', action: 'restore', result: 'done' },
        { path: 'b', action: 'restore', result: 'conflict' },
        { path: 'c', action: 'delete', result: 'done' },
        { path: 'd', action: 'skip', result: 'skipped' },
      ],
      counts: { done: 2, skipped: 1, conflict: 1, failed: 0 },
      removedDirectories: [],
      isVerified: true,
      status: 'incomplete',
      incomplete: 1,
    };
    expect(changedPaths(result)).toEqual(['a', 'c']);
    expect(describeRestore(result)).toBe(
      '1 file could not be restored, 2 files changed, 1 left alone; every written file was read back and verified.',
    );
    expect(restoreHeadline(result, false)).toBe('Restore incomplete');
    expect(restoreProblems(result)).toEqual([{ path: 'b', why: 'changed during the restore; left as found' }]);
  });

  it('says "incomplete" for a file skipped as blocked, and "nothing to restore" only when nothing differed', () => {
    const brief = { id: 'c'.repeat(40), reason: 'before write_file', time: '2026-01-01T00:00:00Z' };
    const plan = {
      dir: '/w',
      checkpoint: brief,
      paths: [],
      entries: [],
      counts: { restore: 0, recreate: 0, delete: 0, skip: 1 },
      changedOutsideAgents: 0,
      fingerprint: 'f'.repeat(64),
    };
    const blocked: RestoreResult = {
      plan,
      preRollback: brief,
      outcomes: [
        {
          path: 'a.txt',
          action: 'skip',
          result: 'skipped',
          reason: 'blocked',
          message: 'A folder is here now holding 1 file(s)',
        },
      ],
      counts: { done: 0, skipped: 1, conflict: 0, failed: 0 },
      removedDirectories: [],
      isVerified: true,
      status: 'incomplete',
      incomplete: 1,
    };
    expect(restoreHeadline(blocked, false)).toBe('Restore incomplete');
    expect(describeRestore(blocked)).toBe('1 file could not be restored, 0 files changed.');
    expect(restoreProblems(blocked)).toEqual([{ path: 'a.txt', why: 'A folder is here now holding 1 file(s)' }]);
    const matched: RestoreResult = {
      ...blocked,
      outcomes: [],
      counts: { done: 0, skipped: 0, conflict: 0, failed: 0 },
      status: 'nothing-to-do',
      incomplete: 0,
    };
    expect(restoreHeadline(matched, false)).toBe('Nothing to restore');
    expect(restoreProblems(matched)).toEqual([]);
  });
});

describe('timeline columns', () => {
  it('puts the actors that are not sessions first, then sessions in order, capped', () => {
    const entry = (sessionId?: string): TimelineEntry => ({
      id: 'x',
      dir: '/w',
      time: 't',
      reason: 'r',
      attribution: sessionId === undefined ? {} : { sessionId },
      kind: 'checkpoint',
      stats: { files: 0, insertions: 0, deletions: 0 },
      skipped: [],
      tree: 't',
      source: 'vigil',
    });
    const columns = timelineColumns([
      entry('b'),
      entry(),
      entry('a'),
      entry('b'),
      ...['c', 'd', 'e', 'f', 'g'].map(entry),
    ]);
    expect(columns.get('@vigil')).toBe(0);
    expect(columns.get('b')).toBe(1);
    expect(columns.get('a')).toBe(2);
    expect(columns.get('g')).toBe(5);
    expect(timelineColumns([entry('a')]).get('a')).toBe(0);
  });
});
