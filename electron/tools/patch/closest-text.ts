/** A span of lines in a file (1-based, inclusive) that resembles the text searched for. */
export interface ClosestSpan {
  readonly start: number;
  readonly end: number;
  /** 1 when equal up to whitespace; otherwise the mean similarity of the lines, from 0 to 1. */
  readonly similarity: number;
  readonly isWhitespaceOnly: boolean;
}

/** Lines of `old` compared at most (a longer old_string is located by its beginning). */
const maxWindow = 30;

/** Work budget (line comparisons) before the search falls back to the first line alone. */
const maxComparisons = 3_000_000;

function squash(line: string): string {
  return line.trim().replace(/\s+/gu, ' ');
}

function bigrams(line: string): Set<string> {
  const text = squash(line);
  const grams = new Set<string>();
  for (let index = 0; index < text.length - 1; index += 1) grams.add(text.slice(index, index + 2));
  if (text.length === 1) grams.add(text);
  return grams;
}

/** The Dice coefficient of two bigram sets: 1 for equal lines, 0 for nothing in common. */
function dice(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const gram of small) if (large.has(gram)) shared += 1;
  return (2 * shared) / (a.size + b.size);
}

/** Where `oldLines` would match if whitespace were ignored (trimmed, runs collapsed, blank lines skipped). */
function matchIgnoringWhitespace(fileLines: readonly string[], oldLines: readonly string[]): ClosestSpan | undefined {
  const wanted = oldLines.map(squash).filter((line) => line !== '');
  if (wanted.length === 0) return undefined;
  const squashed = fileLines.map(squash);
  for (let start = 0; start < squashed.length; start += 1) {
    if (squashed[start] !== wanted[0]) continue;
    let matched = 0;
    let index = start;
    for (; index < squashed.length && matched < wanted.length; index += 1) {
      if (squashed[index] === '') continue;
      if (squashed[index] !== wanted[matched]) break;
      matched += 1;
    }
    if (matched === wanted.length) return { start: start + 1, end: index, similarity: 1, isWhitespaceOnly: true };
  }
  return undefined;
}

/**
 * The lines of a file most like `oldString`, to show an agent whose exact match failed: first a
 * match that differs only in whitespace, else the window of lines with the highest similarity.
 */
export function findClosestText(fileText: string, oldString: string): ClosestSpan | undefined {
  const fileLines = fileText.split('\n');
  const oldLines = oldString.split('\n');
  const loose = matchIgnoringWhitespace(fileLines, oldLines);
  if (loose !== undefined) return loose;
  let wanted = oldLines.slice(0, maxWindow).map(bigrams);
  if (wanted.length * fileLines.length > maxComparisons) {
    const firstNonBlank = wanted.find((grams) => grams.size > 0);
    wanted = firstNonBlank === undefined ? [] : [firstNonBlank];
  }
  if (wanted.length === 0 || fileText === '') return undefined;
  const fileGrams = fileLines.map(bigrams);
  let best: { start: number; score: number } | undefined;
  for (let start = 0; start + wanted.length <= fileGrams.length || (start === 0 && fileGrams.length > 0); start += 1) {
    let total = 0;
    const span = Math.min(wanted.length, fileGrams.length - start);
    for (let offset = 0; offset < span; offset += 1)
      total += dice(wanted[offset] as Set<string>, fileGrams[start + offset] as Set<string>);
    const score = total / wanted.length;
    if (best === undefined || score > best.score) best = { start, score };
    if (start + wanted.length >= fileGrams.length) break;
  }
  if (best === undefined || best.score === 0) return undefined;
  const end = Math.min(fileLines.length, best.start + Math.max(oldLines.length, 1));
  return { start: best.start + 1, end, similarity: best.score, isWhitespaceOnly: false };
}
