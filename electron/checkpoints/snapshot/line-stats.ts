import { diffArrays } from 'diff';

/** Beyond this many differing lines (after trimming the common ends) counts are estimated. */
const maxExactLines = 20_000;

/**
 * Myers' diff costs about (lines × edits); past this many steps the counts are estimated
 * instead, so one rewritten file costs about a millisecond, not tens (1,200 rewritten
 * 400-line files once held a snapshot for 40 s and blocked the event loop meanwhile).
 */
const maxDiffSteps = 100_000;

/** Whether content is binary by git's rule: a NUL byte in the first 8000 bytes. */
export function isBinary(content: Uint8Array): boolean {
  const limit = Math.min(content.length, 8000);
  for (let index = 0; index < limit; index += 1) if (content[index] === 0) return true;
  return false;
}

/** How many lines git counts in a file (a last line without a newline counts). */
export function countLines(content: Uint8Array): number {
  let lines = 0;
  for (let index = 0; index < content.length; index += 1) if (content[index] === 0x0a) lines += 1;
  if (content.length > 0 && content[content.length - 1] !== 0x0a) lines += 1;
  return lines;
}

/** Splits content into lines, each keeping its newline (so "a" and "a\n" differ, as in git). */
function splitLines(content: Uint8Array): string[] {
  const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('latin1');
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Lines added and removed between two versions of a text file (git's numstat). */
export function lineChanges(before: Uint8Array, after: Uint8Array): { insertions: number; deletions: number } {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  let start = 0;
  while (start < oldLines.length && start < newLines.length && oldLines[start] === newLines[start]) start += 1;
  let oldEnd = oldLines.length;
  let newEnd = newLines.length;
  while (oldEnd > start && newEnd > start && oldLines[oldEnd - 1] === newLines[newEnd - 1]) {
    oldEnd -= 1;
    newEnd -= 1;
  }
  const removed = oldLines.slice(start, oldEnd);
  const added = newLines.slice(start, newEnd);
  if (removed.length === 0 || added.length === 0) return { insertions: added.length, deletions: removed.length };
  const lines = removed.length + added.length;
  const maxEditLength = Math.min(4_000, Math.floor(maxDiffSteps / lines));
  if (maxEditLength < lines) {
    // The estimate pairs every line it can, so the exact diff never finds fewer edits: when the
    // estimate already exceeds the budget, diffing would only spend it and give up.
    const estimate = estimateChanges(removed, added);
    if (estimate.insertions + estimate.deletions > maxEditLength) return estimate;
  }
  if (lines <= maxExactLines) {
    const changes = diffArrays(removed, added, { maxEditLength });
    if (changes !== undefined) {
      let insertions = 0;
      let deletions = 0;
      for (const change of changes) {
        if (change.added) insertions += change.count;
        else if (change.removed) deletions += change.count;
      }
      return { insertions, deletions };
    }
  }
  return estimateChanges(removed, added);
}

/** A linear-time estimate for huge rewrites: lines not matched by an equal line on the other side. */
function estimateChanges(
  removed: readonly string[],
  added: readonly string[],
): { insertions: number; deletions: number } {
  const pool = new Map<string, number>();
  for (const line of removed) pool.set(line, (pool.get(line) ?? 0) + 1);
  let common = 0;
  for (const line of added) {
    const left = pool.get(line) ?? 0;
    if (left > 0) {
      pool.set(line, left - 1);
      common += 1;
    }
  }
  return { insertions: added.length - common, deletions: removed.length - common };
}
