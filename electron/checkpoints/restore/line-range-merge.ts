import { diffArrays } from 'diff';
import { fromLines, type LineText, type TextLine } from './line-text';

/**
 * Restoring some lines of a file: the checkpoint's version of the chosen lines goes back in, and
 * every other line stays as it is now, byte for byte. Lines are matched by their text; line
 * endings, the byte-order mark and a missing final newline are the file's as it is now (a line
 * put back takes the file's line ending), so a line restore never changes how the file is encoded.
 */

/** Lines `from` to `to` (1-based, inclusive). */
export interface LineRange {
  readonly from: number;
  readonly to: number;
}

/**
 * What to restore, as diff rows: `old` are lines of the checkpoint's version to put back (removed
 * rows), `new` are lines of the current version to take out (added rows). Rows that are the same
 * on both sides are left as they are whatever the selection says.
 */
export interface LineSelection {
  readonly old: readonly LineRange[];
  readonly new: readonly LineRange[];
}

/** A run of lines that differ: `oldCount` lines of the checkpoint from `oldStart` became `newCount` current lines from `newStart` (0-based). */
interface ChangeBlock {
  readonly oldStart: number;
  readonly oldCount: number;
  readonly newStart: number;
  readonly newCount: number;
}

/** The result of a merge. */
export interface LineMerge {
  readonly content: Uint8Array;
  /** Lines of the checkpoint put back. */
  readonly putBack: number;
  /** Current lines taken out. */
  readonly takenOut: number;
}

/** The largest edit distance searched before two versions are treated as replaced whole (as the diff view does). */
const maxEditLength = 1_000;

/** Whether `line` (1-based) is in one of `ranges`. */
export function isInRanges(ranges: readonly LineRange[], line: number): boolean {
  return ranges.some((range) => range.from <= line && line <= range.to);
}

/** The runs of lines that differ between two versions, matched by line text, in order. */
function changeBlocks(old: readonly TextLine[], current: readonly TextLine[]): ChangeBlock[] {
  const oldTexts = old.map((line) => line.content);
  const newTexts = current.map((line) => line.content);
  const changes = diffArrays(oldTexts, newTexts, { maxEditLength });
  if (changes === undefined)
    return oldTexts.length + newTexts.length === 0
      ? []
      : [{ oldStart: 0, oldCount: oldTexts.length, newStart: 0, newCount: newTexts.length }];
  const blocks: ChangeBlock[] = [];
  let oldAt = 0;
  let newAt = 0;
  let open: { oldStart: number; oldCount: number; newStart: number; newCount: number } | undefined;
  for (const change of changes) {
    if (!change.added && !change.removed) {
      if (open !== undefined) blocks.push(open);
      open = undefined;
      oldAt += change.count;
      newAt += change.count;
      continue;
    }
    open ??= { oldStart: oldAt, oldCount: 0, newStart: newAt, newCount: 0 };
    if (change.removed) {
      open.oldCount += change.count;
      oldAt += change.count;
    } else {
      open.newCount += change.count;
      newAt += change.count;
    }
  }
  if (open !== undefined) blocks.push(open);
  return blocks;
}

/** Sorted, merged ranges of the line numbers for which `isChosen` holds. */
function rangesOf(count: number, isChosen: (line: number) => boolean): LineRange[] {
  const ranges: LineRange[] = [];
  for (let line = 1; line <= count; line += 1) {
    if (!isChosen(line)) continue;
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last.to === line - 1) ranges[ranges.length - 1] = { from: last.from, to: line };
    else ranges.push({ from: line, to: line });
  }
  return ranges;
}

/**
 * The diff rows that restoring lines `range` of the checkpoint's version means: its changed lines
 * in the range go back; a current line goes away when it stands in for a line of the range (paired
 * in order within a change), when it follows the last line of a change that ends in the range, or
 * when it was inserted between two lines of the range.
 */
export function selectionOfOldRange(old: LineText, current: LineText, range: LineRange): LineSelection {
  const takeOut = new Set<number>();
  const putBack = new Set<number>();
  const inRange = (oldLine: number): boolean => range.from <= oldLine && oldLine <= range.to;
  for (const block of changeBlocks(old.lines, current.lines)) {
    for (let index = 0; index < block.oldCount; index += 1)
      if (inRange(block.oldStart + index + 1)) putBack.add(block.oldStart + index + 1);
    const lastOld = block.oldStart + block.oldCount;
    for (let index = 0; index < block.newCount; index += 1) {
      const isTaken =
        block.oldCount === 0
          ? inRange(block.oldStart) && inRange(block.oldStart + 1)
          : index < block.oldCount
            ? inRange(block.oldStart + index + 1)
            : inRange(lastOld);
      if (isTaken) takeOut.add(block.newStart + index + 1);
    }
  }
  return {
    old: rangesOf(old.lines.length, (line) => putBack.has(line)),
    new: rangesOf(current.lines.length, (line) => takeOut.has(line)),
  };
}

/**
 * The current version with the selected rows restored: within each change, position by position,
 * a selected line of the checkpoint comes back and a selected current line goes. Lines put back
 * take the file's line ending; the file keeps its byte-order mark and its final newline (or the
 * lack of one) as it has them now.
 */
export function mergeLines(old: LineText, current: LineText, selection: LineSelection): LineMerge {
  const out: TextLine[] = [];
  let putBack = 0;
  let takenOut = 0;
  let newAt = 0;
  const keepCurrentUntil = (end: number): void => {
    for (; newAt < end; newAt += 1) {
      const line = current.lines[newAt];
      if (line !== undefined) out.push(line);
    }
  };
  for (const block of changeBlocks(old.lines, current.lines)) {
    keepCurrentUntil(block.newStart);
    for (let index = 0; index < Math.max(block.oldCount, block.newCount); index += 1) {
      const oldLine = index < block.oldCount ? old.lines[block.oldStart + index] : undefined;
      if (oldLine !== undefined && isInRanges(selection.old, block.oldStart + index + 1)) {
        out.push({ content: oldLine.content, terminator: current.eol });
        putBack += 1;
      }
      const newLine = index < block.newCount ? current.lines[block.newStart + index] : undefined;
      if (newLine === undefined) continue;
      if (isInRanges(selection.new, block.newStart + index + 1)) takenOut += 1;
      else out.push(newLine);
    }
    newAt = block.newStart + block.newCount;
  }
  keepCurrentUntil(current.lines.length);
  const lines = out.map((line, index): TextLine => {
    const isLast = index === out.length - 1;
    if (!isLast) return line.terminator === '' ? { content: line.content, terminator: current.eol } : line;
    if (!current.hasFinalNewline) return { content: line.content, terminator: '' };
    return line.terminator === '' ? { content: line.content, terminator: current.eol } : line;
  });
  return { content: fromLines(lines, current.hasBom), putBack, takenOut };
}
