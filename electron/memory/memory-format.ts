import type { MemoryTarget, MemoryUsage } from '../../shared/contract/memory-contract';
import { memoryTargets as sharedMemoryTargets } from '../../shared/contract/memory-targets';
import { countChars, pythonStrip, universalNewlines } from './memory-text';

/** What separates two entries on disk: a line holding only `§`. */
export const entryDelimiter = '\n§\n';

/**
 * A line holding only `§` give or take spaces. Hermes splits only on an exact `\n§\n`, so such a
 * line stays inside an entry; adoption proposals split on it (a hand-typed delimiter).
 */
export const delimiterLikeLine = /(^|\n)[ \t]*§[ \t\r]*(\n|$)/;

/** The two memory files of a directory, by the name the `memory` tool uses for them. */
export const memoryFileNames: Readonly<Record<MemoryTarget, string>> = { memory: 'MEMORY.md', user: 'USER.md' };

/** Both targets, in display order. */
export const memoryTargets: readonly MemoryTarget[] = sharedMemoryTargets;

/** Hermes's character limits, delimiters included; a directory can override them. */
export const defaultMemoryLimits: Readonly<Record<MemoryTarget, number>> = { memory: 2200, user: 1375 };

/**
 * The file's text split into entries exactly as Hermes reads it: read with universal newlines,
 * split on the delimiter, strip each entry, drop empty ones. Duplicates are kept here; the drift
 * check needs them.
 */
export function splitEntries(text: string): string[] {
  const read = universalNewlines(text);
  if (pythonStrip(read) === '') return [];
  return read
    .split(entryDelimiter)
    .map((entry) => pythonStrip(entry))
    .filter((entry) => entry !== '');
}

/** Entries with exact duplicates collapsed, first occurrence kept (Hermes's `dict.fromkeys`). */
export function collapseDuplicates(entries: readonly string[]): string[] {
  return [...new Set(entries)];
}

/** The entries a memory file holds: split, stripped, duplicates collapsed. */
export function parseEntries(text: string): string[] {
  return collapseDuplicates(splitEntries(text));
}

/** Entries joined by the delimiter, as Hermes joins them to count and to write (no trailing newline). */
export function joinEntries(entries: readonly string[]): string {
  return entries.join(entryDelimiter);
}

/**
 * The file text Vigil writes for a list of entries: Hermes's join plus one final newline (none
 * for no entries). Hermes strips the ends before comparing, so this is no drift to it, and a later
 * `echo … >> MEMORY.md` starts on a line of its own instead of being glued to the last entry.
 */
export function serializeEntries(entries: readonly string[]): string {
  return entries.length === 0 ? '' : `${joinEntries(entries)}\n`;
}

/** The characters a list of entries occupies on disk, delimiters included (the final newline is not counted, as Hermes does not). */
export function entriesChars(entries: readonly string[]): number {
  return countChars(joinEntries(entries));
}

/** Usage of a list of entries against a limit. */
export function usageOf(entries: readonly string[], limit: number): MemoryUsage {
  const chars = entriesChars(entries);
  return { chars, limit, percent: limit > 0 ? Math.min(100, Math.floor((chars / limit) * 100)) : 0 };
}
