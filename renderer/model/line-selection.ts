import type { StackedRow } from './stacked-rows';

/** Lines `from` to `to` (1-based, inclusive). */
export interface LineRange {
  readonly from: number;
  readonly to: number;
}

/** Diff rows picked for "Restore these lines", in one file: keys `o12` (a removed line 12 to put back), `n13` (an added line 13 to take out). */
export interface LineSelection {
  readonly path: string;
  readonly keys: ReadonlySet<string>;
  /** The row index a drag started on, while the pointer is held. */
  readonly dragFrom?: number | undefined;
  /** What was picked before the drag started (a drag adds to it). */
  readonly base?: ReadonlySet<string> | undefined;
}

function isChange(row: StackedRow | undefined, path: string): row is Extract<StackedRow, { kind: 'line' }> {
  return row?.kind === 'line' && row.path === path && (row.row.kind === 'added' || row.row.kind === 'removed');
}

/** The changed lines between two rows of the same file (inclusive), as keys. */
function changesBetween(rows: readonly StackedRow[], path: string, from: number, to: number): string[] {
  const keys: string[] = [];
  for (let index = Math.min(from, to); index <= Math.max(from, to); index += 1) {
    const row = rows[index];
    if (isChange(row, path)) keys.push(row.key);
  }
  return keys;
}

/** A press on row `index`: starts a drag there (Shift: adds to what is picked in that file; otherwise a new pick). */
export function pressLine(
  selection: LineSelection | undefined,
  rows: readonly StackedRow[],
  index: number,
  isAdding: boolean,
): LineSelection | undefined {
  const row = rows[index];
  if (row?.kind !== 'line') return selection;
  const base = isAdding && selection?.path === row.path ? selection.keys : new Set<string>();
  const keys = new Set([...base, ...changesBetween(rows, row.path, index, index)]);
  return { path: row.path, keys, dragFrom: index, base };
}

/** The pointer, still pressed, is over row `index`: the pick is every changed line from the drag's start to here. */
export function dragLine(
  selection: LineSelection | undefined,
  rows: readonly StackedRow[],
  index: number,
): LineSelection | undefined {
  if (selection?.dragFrom === undefined) return selection;
  const row = rows[index];
  if (row === undefined || row.path !== selection.path) return selection;
  return {
    ...selection,
    keys: new Set([...(selection.base ?? []), ...changesBetween(rows, selection.path, selection.dragFrom, index)]),
  };
}

/** The pointer was released: the pick stays, the drag ends. */
export function releaseLine(selection: LineSelection | undefined): LineSelection | undefined {
  if (selection === undefined) return undefined;
  if (selection.keys.size === 0) return undefined;
  return { path: selection.path, keys: selection.keys };
}

/** Picks every changed line of hunk `hunk` of `path` (added to the pick in that file), or unpicks them when all were picked. */
export function toggleHunk(
  selection: LineSelection | undefined,
  rows: readonly StackedRow[],
  path: string,
  hunk: number,
): LineSelection | undefined {
  const keys = rows
    .filter((row): row is Extract<StackedRow, { kind: 'line' }> => isChange(row, path) && row.hunk === hunk)
    .map((row) => row.key);
  const current = selection?.path === path ? selection.keys : new Set<string>();
  const isAll = keys.length > 0 && keys.every((key) => current.has(key));
  const next = new Set(current);
  for (const key of keys) {
    if (isAll) next.delete(key);
    else next.add(key);
  }
  return next.size === 0 ? undefined : { path, keys: next };
}

function rangesOf(numbers: readonly number[]): LineRange[] {
  const ranges: LineRange[] = [];
  for (const number of [...numbers].sort((a, b) => a - b)) {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && number <= last.to + 1)
      ranges[ranges.length - 1] = { from: last.from, to: Math.max(last.to, number) };
    else ranges.push({ from: number, to: number });
  }
  return ranges;
}

/** The pick as the contract's rows: removed lines to put back (`old`), added lines to take out (`new`). */
export function toRowSelection(selection: LineSelection): { readonly old: LineRange[]; readonly new: LineRange[] } {
  const numbers = (prefix: string): number[] =>
    [...selection.keys].filter((key) => key.startsWith(prefix)).map((key) => Number(key.slice(1)));
  return { old: rangesOf(numbers('o')), new: rangesOf(numbers('n')) };
}
