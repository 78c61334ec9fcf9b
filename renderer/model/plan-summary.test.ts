import { describe, expect, it } from 'vitest';
import { groupPlan, planActionWords, planHeadline, type PlanFile } from './plan-summary';

const file = (path: string, action: PlanFile['action'], isChangedOutside = false, reason?: string): PlanFile => ({
  path,
  action,
  isChangedOutside,
  reason,
});

describe('plan summary', () => {
  it('groups by action, sorts by path and counts what will change and what was edited outside', () => {
    const groups = groupPlan([
      file('b.ts', 'restore', true),
      file('a.ts', 'restore'),
      file('new.ts', 'delete'),
      file('gone.ts', 'recreate'),
      file('big.bin', 'skip', true, 'oversize'),
    ]);
    expect(groups.restore.map((entry) => entry.path)).toEqual(['a.ts', 'b.ts']);
    expect(groups.changeCount).toBe(4);
    expect(groups.outsideCount).toBe(1);
    expect(planHeadline(groups)).toBe('2 to restore · 1 to re-create · 1 to delete · 1 skipped');
    expect(planActionWords(groups)).toBe('restore 2 files, re-create 1 file, delete 1 file');
  });

  it('words an undo that only deletes as a deletion, as its headline does', () => {
    const groups = groupPlan([file('legacy/a.txt', 'delete')]);
    expect(planHeadline(groups)).toBe('1 to delete');
    expect(planActionWords(groups)).toBe('delete 1 file');
  });

  it('says so when nothing would change', () => {
    expect(planHeadline(groupPlan([]))).toBe('Nothing to change');
  });
});
