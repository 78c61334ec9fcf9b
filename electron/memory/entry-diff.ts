import type { EntryDiff } from '../../shared/contract/memory-contract';

/**
 * The entry-level difference between two versions of a file. Entries are compared whole, so an
 * entry that was edited shows as one removed and one added (the UI pairs them for display).
 */
export function diffEntries(previous: readonly string[], current: readonly string[]): EntryDiff {
  const before = new Set(previous);
  const after = new Set(current);
  const keptBefore = previous.filter((entry) => after.has(entry));
  const keptAfter = current.filter((entry) => before.has(entry));
  return {
    added: current.filter((entry) => !before.has(entry)),
    removed: previous.filter((entry) => !after.has(entry)),
    kept: keptAfter.length,
    isReordered: keptBefore.some((entry, index) => keptAfter[index] !== entry),
  };
}
