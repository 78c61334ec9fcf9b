import { changeRuns, isChange, type LineRange } from './line-selection';
import type { StackedRow } from './stacked-rows';

/**
 * Lines picked in a comparison of two checkpoints, as lines of one of them: the version a restore
 * brings back into the live file (the CLI's `vigil checkpoints restore DIR N FILE --lines A-B`,
 * one range per run of picked lines). The live file is neither side of such a diff, so rows
 * cannot name its lines; lines of the checkpoint can.
 */

/** Which side of the diff is the checkpoint restored from: `old` (the removed lines') or `new` (the added lines'). */
export type SourceSide = 'old' | 'new';

type LineRow = Extract<StackedRow, { kind: 'line' }>;

/** The row's line number on the source side, when it has one there (context rows have both). */
function ownNumber(row: LineRow, side: SourceSide): number | undefined {
  const line = row.row;
  if (line.kind === 'context') return side === 'old' ? line.oldNumber : line.newNumber;
  if (side === 'old') return line.kind === 'removed' ? line.oldNumber : undefined;
  return line.kind === 'added' ? line.newNumber : undefined;
}

/** The source-side numbers of the rows around `index` in its hunk: where a line with no counterpart sits. */
function neighbours(rows: readonly StackedRow[], index: number, side: SourceSide): number[] {
  const row = rows[index] as LineRow;
  const found: number[] = [];
  for (const direction of [-1, 1]) {
    for (let at = index + direction; ; at += direction) {
      const other = rows[at];
      if (other?.kind !== 'line' || other.path !== row.path || other.hunk !== row.hunk) break;
      const number = ownNumber(other, side);
      if (number !== undefined) {
        found.push(number);
        break;
      }
    }
  }
  return found;
}

/** Source-side numbers a picked row of the other side stands for: its counterpart's (in order within its change), or its neighbours' when it has none. */
function counterpartNumbers(
  rows: readonly StackedRow[],
  index: number,
  side: SourceSide,
  byKey: ReadonlyMap<string, LineRow>,
  runs: ReturnType<typeof changeRuns>,
): number[] {
  const row = rows[index] as LineRow;
  const run = runs.get(row.key);
  if (run === undefined) return [];
  const mine = side === 'old' ? run.added : run.removed;
  const theirs = side === 'old' ? run.removed : run.added;
  if (theirs.length === 0) return neighbours(rows, index, side);
  const counterpart = byKey.get(theirs[Math.min(mine.indexOf(row.key), theirs.length - 1)] ?? '');
  const number = counterpart === undefined ? undefined : ownNumber(counterpart, side);
  return number === undefined ? [] : [number];
}

/**
 * The picked rows of `path` (keys) as ranges of lines of the `side` version. Two runs merge into
 * one range when only unchanged lines shown in the same hunk lie between them, as `--lines A-B`
 * over the stretch a person picked would; a change left unpicked, or lines the diff does not show
 * (between hunks), keep them apart.
 */
export function sourceRanges(
  rows: readonly StackedRow[],
  path: string,
  keys: ReadonlySet<string>,
  side: SourceSide,
): LineRange[] {
  const runs = changeRuns(rows, path);
  const byKey = new Map<string, LineRow>();
  for (const row of rows) if (row.kind === 'line' && row.path === path) byKey.set(row.key, row);
  const chosen = new Set<number>();
  const shownSame = new Set<string>();
  rows.forEach((row, index) => {
    if (row.kind !== 'line' || row.path !== path) return;
    const own = ownNumber(row, side);
    if (row.row.kind === 'context' && own !== undefined) shownSame.add(`${row.hunk}:${own}`);
    if (!isChange(row, path) || !keys.has(row.key)) return;
    const numbers = own === undefined ? counterpartNumbers(rows, index, side, byKey, runs) : [own];
    for (const number of numbers) chosen.add(number);
  });
  const hunkOf = new Map<number, number>();
  for (const row of byKey.values()) {
    const own = ownNumber(row, side);
    if (own !== undefined) hunkOf.set(own, row.hunk);
  }
  const ranges: LineRange[] = [];
  for (const number of [...chosen].sort((a, b) => a - b)) {
    const last = ranges[ranges.length - 1];
    const hunk = hunkOf.get(number);
    const isBridged =
      last !== undefined &&
      Array.from({ length: number - last.to - 1 }, (_, gap) => last.to + 1 + gap).every((line) =>
        shownSame.has(`${hunk}:${line}`),
      );
    if (last !== undefined && (number <= last.to + 1 || isBridged))
      ranges[ranges.length - 1] = { from: last.from, to: Math.max(last.to, number) };
    else ranges.push({ from: number, to: number });
  }
  return ranges;
}
