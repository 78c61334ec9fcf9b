import type { MemoryTarget, MemoryUsage } from '../../shared/contract/memory-contract';
import { countChars, pythonStrip } from './memory-text';

/** What separates two entries on disk: a line holding only `§`. */
export const entryDelimiter = '\n§\n';

/**
 * A line holding only `§` give or take spaces or a carriage return. Inside one entry it means two
 * entries merged (drift), and new entry text may not contain one (it would split on re-read).
 */
export const delimiterLikeLine = /(^|\n)[ \t]*§[ \t\r]*(\n|$)/;

/** The two memory files of a directory, by the name the `memory` tool uses for them. */
export const memoryFileNames: Readonly<Record<MemoryTarget, string>> = { memory: 'MEMORY.md', user: 'USER.md' };

/** Both targets, in display order. */
export const memoryTargets: readonly MemoryTarget[] = ['memory', 'user'];

/** Hermes's character limits, delimiters included; a directory can override them. */
export const defaultMemoryLimits: Readonly<Record<MemoryTarget, number>> = { memory: 2200, user: 1375 };

/**
 * The file's text split into entries exactly as Hermes reads it: split on the delimiter, strip
 * each entry, drop empty ones. Duplicates are kept here; the drift check needs them.
 */
export function splitEntries(text: string): string[] {
  if (pythonStrip(text) === '') return [];
  return text
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

/** The file text for a list of entries: joined by the delimiter, no trailing newline. */
export function joinEntries(entries: readonly string[]): string {
  return entries.join(entryDelimiter);
}

/** The characters a list of entries occupies on disk, delimiters included. */
export function entriesChars(entries: readonly string[]): number {
  return countChars(joinEntries(entries));
}

/** Usage of a list of entries against a limit. */
export function usageOf(entries: readonly string[], limit: number): MemoryUsage {
  const chars = entriesChars(entries);
  return { chars, limit, percent: limit > 0 ? Math.min(100, Math.floor((chars / limit) * 100)) : 0 };
}
