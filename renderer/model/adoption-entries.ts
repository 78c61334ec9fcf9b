import { codePointLength } from './format';

/** What separates two entries in the file (`\n§\n`): it counts toward the limit, as Hermes counts it. */
const delimiterChars = 3;

/** Usage of entries being edited, counted as the file will hold them (each stripped, empty ones dropped). */
export interface EntriesUsage {
  readonly chars: number;
  readonly limit: number;
  readonly fits: boolean;
  /** Entries that are empty or only whitespace (they are dropped when written). */
  readonly empty: number;
}

/** The usage of `entries` against `limit`: code points of the stripped entries plus the delimiters. */
export function entriesUsage(entries: readonly string[], limit: number): EntriesUsage {
  const kept = entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
  const chars =
    kept.reduce((sum, entry) => sum + codePointLength(entry), 0) + Math.max(0, kept.length - 1) * delimiterChars;
  return { chars, limit, fits: chars <= limit, empty: entries.length - kept.length };
}

/** The entries with entry `index` replaced by `text`. */
export function editEntry(entries: readonly string[], index: number, text: string): string[] {
  return entries.map((entry, position) => (position === index ? text : entry));
}

/** The entries with entry `index` split in two at character offset `at` (a textarea's caret); unchanged when a part would be empty. */
export function splitEntryAt(entries: readonly string[], index: number, at: number): string[] {
  const entry = entries[index];
  if (entry === undefined) return [...entries];
  const head = entry.slice(0, at).trim();
  const tail = entry.slice(at).trim();
  if (head === '' || tail === '') return [...entries];
  return [...entries.slice(0, index), head, tail, ...entries.slice(index + 1)];
}

/** The entries with entry `index` split into one entry per non-empty line. */
export function splitEntryLines(entries: readonly string[], index: number): string[] {
  const entry = entries[index];
  if (entry === undefined) return [...entries];
  const lines = entry
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return [...entries.slice(0, index), ...(lines.length === 0 ? [entry] : lines), ...entries.slice(index + 1)];
}

/** The entries with entry `index` and the next one merged into one (joined by a line break). */
export function mergeWithNext(entries: readonly string[], index: number): string[] {
  const entry = entries[index];
  const next = entries[index + 1];
  if (entry === undefined || next === undefined) return [...entries];
  return [...entries.slice(0, index), `${entry.trimEnd()}\n${next.trimStart()}`, ...entries.slice(index + 2)];
}

/** The entries without entry `index`. */
export function removeEntry(entries: readonly string[], index: number): string[] {
  return entries.filter((_entry, position) => position !== index);
}
