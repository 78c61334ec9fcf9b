import type { StackedRow } from './stacked-rows';

/** Lines `from` to `to` (1-based, inclusive). */
export interface LineRange {
  readonly from: number;
  readonly to: number;
}

/**
 * Diff rows picked for "Restore these lines", in one file: keys `o12` (a removed line 12 to put
 * back), `n13` (an added line 13 to take out). A pick always holds a changed line's counterparts
 * (see `withCounterparts`), so the preview and the restore give what the CLI's `--lines` gives.
 */
export interface LineSelection {
  readonly path: string;
  readonly keys: ReadonlySet<string>;
  /**
   * The key of the line a drag started on, while the pointer is held: a key, not a row index,
   * because the rows can be drawn again mid-drag (a live comparison recomputes, a file above loads).
   */
  readonly dragFrom?: string | undefined;
  /** What was picked before the drag started (a drag adds to it). */
  readonly base?: ReadonlySet<string> | undefined;
}

/** Whether `row` is an added or removed line of `path`. */
export function isChange(row: StackedRow | undefined, path: string): row is Extract<StackedRow, { kind: 'line' }> {
  return row?.kind === 'line' && row.path === path && (row.row.kind === 'added' || row.row.kind === 'removed');
}

/** One change of a file's diff: the removed rows and the added rows that replace them, in order (keys). */
export interface ChangeRun {
  readonly removed: string[];
  readonly added: string[];
}

/** Every change of `path` by the key of each of its rows: runs of changed rows unbroken by context or a hunk's edge. */
export function changeRuns(rows: readonly StackedRow[], path: string): Map<string, ChangeRun> {
  const runs = new Map<string, ChangeRun>();
  let run: ChangeRun | undefined;
  let hunk = -1;
  for (const row of rows) {
    if (!isChange(row, path) || row.hunk !== hunk) run = undefined;
    if (row.kind === 'line' && row.path === path) hunk = row.hunk;
    if (!isChange(row, path)) continue;
    run ??= { removed: [], added: [] };
    (row.row.kind === 'removed' ? run.removed : run.added).push(row.key);
    runs.set(row.key, run);
  }
  return runs;
}

/**
 * What picking a changed line means, whichever side it is on: that line of the checkpoint's
 * version comes back in place of what stands for it now, as `--lines` does in the CLI. Within a
 * change, the i-th removed line and the i-th added line stand for each other; the added lines past
 * the last removed one go with it; a line with no counterpart (a pure insertion or deletion) goes
 * alone. So a drag over the old lines 10–20 of a rewritten block also takes out the new lines
 * that replaced them, instead of inserting the old ones beside them.
 */
function withCounterparts(rows: readonly StackedRow[], path: string, keys: Iterable<string>): Set<string> {
  const runs = changeRuns(rows, path);
  const picked = new Set<string>();
  for (const key of keys) {
    const run = runs.get(key);
    if (run === undefined) continue;
    picked.add(key);
    const removedIndex = run.removed.indexOf(key);
    const index = removedIndex === -1 ? run.added.indexOf(key) : removedIndex;
    const counterpart = removedIndex === -1 ? run.removed[index] : run.added[index];
    if (counterpart !== undefined) picked.add(counterpart);
    if (removedIndex !== -1 && removedIndex === run.removed.length - 1)
      for (const extra of run.added.slice(run.removed.length)) picked.add(extra);
  }
  return picked;
}

/** The changed lines between two rows of the same file (inclusive), with their counterparts, as keys. */
export function changesBetween(rows: readonly StackedRow[], path: string, from: number, to: number): Set<string> {
  const keys: string[] = [];
  for (let index = Math.min(from, to); index <= Math.max(from, to); index += 1) {
    const row = rows[index];
    if (isChange(row, path)) keys.push(row.key);
  }
  return withCounterparts(rows, path, keys);
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
  return { path: row.path, keys, dragFrom: row.key, base };
}

function isSameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((key) => b.has(key));
}

/**
 * The pointer, still pressed, is over row `index`: the pick is every changed line from the drag's
 * start to here. While the line the drag started on is not among `rows` (its file's hunks are
 * loading again), the pick stays. The same selection comes back when the pick does not change.
 */
export function dragLine(
  selection: LineSelection | undefined,
  rows: readonly StackedRow[],
  index: number,
): LineSelection | undefined {
  if (selection?.dragFrom === undefined) return selection;
  const { path, dragFrom } = selection;
  const row = rows[index];
  if (row === undefined || row.path !== path) return selection;
  const from = rows.findIndex(
    (candidate) => candidate.kind === 'line' && candidate.path === path && candidate.key === dragFrom,
  );
  if (from === -1) return selection;
  const keys = new Set([...(selection.base ?? []), ...changesBetween(rows, path, from, index)]);
  return isSameSet(keys, selection.keys) ? selection : { ...selection, keys };
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
