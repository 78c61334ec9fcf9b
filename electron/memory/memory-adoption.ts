import type { AdoptionProposal, AdoptionStrategy } from '../../shared/contract/memory-contract';
import { AppError } from '../../shared/errors';
import { collapseDuplicates, delimiterLikeLine, entriesChars, entryDelimiter, usageOf } from './memory-format';
import { countChars, formatCount, pythonStrip, universalNewlines } from './memory-text';
import { refuseThreat } from './memory-operations';

/** The strategies in the order the recommendation prefers them when the text has no headings. */
const strategies: readonly AdoptionStrategy[] = ['delimiter', 'headings', 'blank-lines', 'lines'];

function clean(parts: readonly string[]): string[] {
  return collapseDuplicates(parts.map((part) => pythonStrip(part)).filter((part) => part !== ''));
}

/** Splits on every `§` line, however it is encoded (CRLF, spaces around it). */
function byDelimiter(text: string): string[] {
  return clean(text.split(/\r?\n[ \t]*§[ \t\r]*(?:\n|$)|^[ \t]*§[ \t\r]*\n/));
}

/** Splits into paragraphs: runs of text separated by blank lines. */
function byBlankLines(text: string): string[] {
  return clean(text.replace(/\r\n/g, '\n').split(/\n[ \t]*\n/));
}

/** Splits before each Markdown heading (`#` to `######`); text before the first heading is an entry too. */
function byHeadings(text: string): string[] {
  return clean(text.replace(/\r\n/g, '\n').split(/\n(?=#{1,6}[ \t])/));
}

/** One entry per non-empty line (a list of notes typed or appended one per line). */
function byLines(text: string): string[] {
  return clean(universalNewlines(text).split('\n'));
}

const splitters: Readonly<Record<AdoptionStrategy, (text: string) => string[]>> = {
  delimiter: byDelimiter,
  headings: byHeadings,
  'blank-lines': byBlankLines,
  lines: byLines,
};

/** Entries with `§` lines removed from inside them (left over from a delimiter-less split), and entries that are only a `§`. */
function withoutDelimiterLines(entries: readonly string[]): string[] {
  const split = clean(entries.flatMap((entry) => (delimiterLikeLine.test(entry) ? byDelimiter(entry) : [entry])));
  return split.filter((entry) => entry !== '§');
}

/** Every way of splitting free-form text into entries, with their usage against the limit. */
export function proposeEntries(text: string, limit: number): AdoptionProposal[] {
  return strategies.map((strategy) => {
    const entries = withoutDelimiterLines(splitters[strategy](text));
    const usage = usageOf(entries, limit);
    return { strategy, entries, usage, fits: usage.chars <= limit };
  });
}

/**
 * The proposal to show first: the first that fits, preferring headings when the text has Markdown
 * headings (sections are the natural entries), then delimiters, then blank lines; when none fits,
 * the one with the most entries (the easiest to trim). None when the text holds no entries.
 */
export function recommendProposal(proposals: readonly AdoptionProposal[], text = ''): AdoptionStrategy | null {
  const order: readonly AdoptionStrategy[] = /(^|\n)#{1,6}[ \t]/.test(text)
    ? ['headings', 'delimiter', 'blank-lines', 'lines']
    : strategies;
  const useful = order.flatMap((strategy) =>
    proposals.filter((proposal) => proposal.strategy === strategy && proposal.entries.length > 0),
  );
  const fitting = useful.find((proposal) => proposal.fits);
  if (fitting !== undefined) return fitting.strategy;
  const most = [...useful].sort((a, b) => b.entries.length - a.entries.length)[0];
  return most?.strategy ?? null;
}

/**
 * Checks the entries a user confirmed before they are written: each stripped and non-empty, none
 * holding a `§` line, duplicates collapsed, and the whole within the limit.
 */
export function checkAdoptedEntries(entries: readonly string[], limit: number, fileName: string): string[] {
  const cleaned: string[] = [];
  entries.forEach((entry, index) => {
    const text = pythonStrip(universalNewlines(entry));
    if (text === '')
      throw new AppError(
        'invalid_request',
        `Entry ${index + 1} is empty (field "entries.${index}"). Remove it or give it text.`,
        { field: `entries.${index}` },
      );
    if (text.includes(entryDelimiter)) {
      throw new AppError(
        'invalid_request',
        `Entry ${index + 1} has a line holding only "§" (field "entries.${index}"), which would split it in two. Make it two entries.`,
        { field: `entries.${index}` },
      );
    }
    refuseThreat(text, `entries.${index}`);
    cleaned.push(text);
  });
  const unique = collapseDuplicates(cleaned);
  const chars = entriesChars(unique);
  if (chars > limit) {
    const longest = Math.max(0, ...unique.map((entry) => countChars(entry)));
    throw new AppError(
      'limit_exceeded',
      `These ${unique.length} entries take ${formatCount(chars)} characters, over the ${formatCount(limit)} limit of ${fileName} (the longest is ${formatCount(longest)}). Nothing was written; shorten or drop entries and confirm again.`,
      { usage: usageOf(unique, limit), entries: unique },
    );
  }
  return unique;
}
