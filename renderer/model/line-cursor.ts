import { changesBetween, isChange, type LineSelection } from './line-selection';
import type { StackedRow } from './stacked-rows';

/**
 * Picking lines from the keyboard in the stacked diff: a cursor on one line row, moved line by
 * line or change by change; Shift extends the pick from where it started (the anchor) to the
 * cursor, with the same meaning as a drag over those rows (each changed line with what stands for
 * it on the other side, as the CLI's `--lines` restores).
 */

/** How far one key press moves the cursor: one line row, or to the first line of the next (previous) change. */
export type CursorStep = 'line' | 'change';

/** A line row the cursor can stand on (not the "no newline at end of file" note). */
function isLine(row: StackedRow | undefined): row is Extract<StackedRow, { kind: 'line' }> {
  return row?.kind === 'line' && row.key !== '';
}

/** Whether row `index` starts a change: a changed line not preceded by a changed line of the same hunk of its file. */
function startsChange(rows: readonly StackedRow[], index: number): boolean {
  const row = rows[index];
  if (!isLine(row) || !isChange(row, row.path)) return false;
  const before = rows[index - 1];
  return !(isLine(before) && isChange(before, row.path) && before.hunk === row.hunk);
}

/**
 * Where the cursor goes from `index` (undefined: not placed yet, so it starts at `start`, the first
 * row in view) by `direction`: the next (previous) line row, or the start of the next (previous)
 * change. Stays where it is at either end.
 */
export function moveCursor(
  rows: readonly StackedRow[],
  index: number | undefined,
  direction: 1 | -1,
  step: CursorStep,
  start = 0,
): number | undefined {
  const matches = (at: number): boolean => (step === 'line' ? isLine(rows[at]) : startsChange(rows, at));
  if (index === undefined || !isLine(rows[index])) {
    for (let at = Math.max(0, start); at < rows.length; at += 1) if (matches(at)) return at;
    for (let at = Math.min(start, rows.length - 1); at >= 0; at -= 1) if (matches(at)) return at;
    return undefined;
  }
  for (let at = index + direction; at >= 0 && at < rows.length; at += direction) if (matches(at)) return at;
  return index;
}

/**
 * The pick Shift+arrows make: every changed line from the anchor to the cursor, within the
 * anchor's file (a cursor in another file stops at the anchor file's edge); nothing when no
 * changed line lies between.
 */
export function spanPick(rows: readonly StackedRow[], anchor: number, cursor: number): LineSelection | undefined {
  const from = rows[anchor];
  if (!isLine(from)) return undefined;
  let to = cursor;
  const step = cursor >= anchor ? 1 : -1;
  while (to !== anchor && rows[to]?.path !== from.path) to -= step;
  const keys = changesBetween(rows, from.path, anchor, to);
  return keys.size === 0 ? undefined : { path: from.path, keys };
}

/** Space on the cursor's line: adds its change (with its counterparts) to the pick in that file, or takes it out when it was picked. */
export function toggleAtCursor(
  selection: LineSelection | undefined,
  rows: readonly StackedRow[],
  cursor: number,
): LineSelection | undefined {
  const row = rows[cursor];
  if (!isLine(row) || !isChange(row, row.path)) return selection;
  const keys = changesBetween(rows, row.path, cursor, cursor);
  const current = selection?.path === row.path ? selection.keys : new Set<string>();
  const next = new Set(current);
  const isPicked = current.has(row.key);
  for (const key of keys) {
    if (isPicked) next.delete(key);
    else next.add(key);
  }
  return next.size === 0 ? undefined : { path: row.path, keys: next };
}

/** The cursor's row as a person hears it: "line 12 of a.txt, removed: text" (the text cut short). */
export function describeCursor(row: StackedRow | undefined): string {
  if (!isLine(row)) return '';
  const line = row.row;
  const text = 'text' in line ? line.text.slice(0, 80) : '';
  switch (line.kind) {
    case 'removed':
      return `old line ${line.oldNumber} of ${row.path}, removed: ${text}`;
    case 'added':
      return `new line ${line.newNumber} of ${row.path}, added: ${text}`;
    case 'context':
      return `line ${line.newNumber} of ${row.path}, unchanged: ${text}`;
    default:
      return `${row.path}: ${text}`;
  }
}
