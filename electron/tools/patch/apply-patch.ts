import { AppError } from '../../../shared/errors';
import { findClosestText } from './closest-text';

/** The outcome of a patch, before it is written. */
export interface PatchedText {
  /** The whole new file text, with the original BOM and line endings. */
  readonly text: string;
  readonly replacements: number;
  /** The line where each replacement starts in the new text (1-based). */
  readonly lines: readonly number[];
  /** The old and new text with LF endings and no BOM, for a readable diff. */
  readonly before: string;
  readonly after: string;
}

/** Occurrence lines listed in an ambiguity error at most. */
const maxListedLines = 20;

/** Lines of context shown in a no-match error at most. */
const maxShownLines = 12;

function lineAt(text: string, index: number, from = 0, fromLine = 1): number {
  let line = fromLine;
  for (
    let position = text.indexOf('\n', from);
    position !== -1 && position < index;
    position = text.indexOf('\n', position + 1)
  )
    line += 1;
  return line;
}

/** Every non-overlapping occurrence of `needle`, in order. */
function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + needle.length))
    found.push(index);
  return found;
}

/** Lines shown to an agent: numbered like read_file, each cut to a readable length. */
function numberedLines(text: string, start: number, end: number): string {
  return text
    .split('\n')
    .slice(start - 1, Math.min(end, start - 1 + maxShownLines))
    .map(
      (line, offset) => `${String(start + offset).padStart(6)}\t${line.length > 200 ? `${line.slice(0, 200)}…` : line}`,
    )
    .join('\n');
}

function noMatch(work: string, oldString: string, displayPath: string): AppError {
  const parts = [`patch found no exact match for old_string in ${displayPath}; the file was not modified.`];
  const oldLines = oldString.split('\n').filter((line) => line.trim() !== '');
  if (oldLines.length > 0 && oldLines.every((line) => /^\s*\d+(\t|→)/u.test(line))) {
    parts.push('old_string seems to include the line-number prefixes that read_file adds; leave them out.');
  }
  const closest = findClosestText(work, oldString);
  if (closest === undefined) {
    parts.push('Nothing in the file resembles it.');
  } else if (closest.isWhitespaceOnly) {
    parts.push(
      `It matches lines ${closest.start}-${closest.end} only if whitespace is ignored; copy the exact indentation and spacing from there:`,
      numberedLines(work, closest.start, closest.end),
    );
  } else {
    parts.push(
      `The closest text is at lines ${closest.start}-${closest.end} (${Math.round(closest.similarity * 100)}% similar):`,
      numberedLines(work, closest.start, closest.end),
    );
  }
  parts.push('Read the file again and copy old_string exactly, whitespace and line breaks included.');
  return new AppError('no_match', parts.join('\n'), { path: displayPath, closest });
}

/**
 * Replaces `oldString` with `newString` in a file's text: an exact match, once (or every one with
 * `replaceAll`). A UTF-8 BOM is kept, and so are CRLF line endings: in a CRLF file both strings are
 * matched and written with the file's own endings. Refusals (`invalid_request` for equal strings,
 * `no_match` with the closest lines, `ambiguous_match` with the lines of every occurrence) change nothing.
 */
export function applyPatch(
  original: string,
  oldString: string,
  newString: string,
  replaceAll: boolean,
  displayPath: string,
): PatchedText {
  const bom = original.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = original.slice(bom.length);
  const crlfCount = occurrences(body, '\r\n').length;
  const isCrlf = crlfCount > 0 && crlfCount === occurrences(body, '\n').length;
  const hasNoCarriageReturn = !body.includes('\r');
  const toLf = (text: string): string => (isCrlf || hasNoCarriageReturn ? text.replaceAll('\r\n', '\n') : text);
  const work = isCrlf ? body.replaceAll('\r\n', '\n') : body;
  const search = toLf(oldString);
  const replacement = toLf(newString);
  if (search === replacement) {
    throw new AppError(
      'invalid_request',
      'patch was not run: old_string and new_string are identical, so there is nothing to change; the file was not modified.',
      { path: displayPath },
    );
  }
  const found = occurrences(work, search);
  if (found.length === 0) throw noMatch(work, search, displayPath);
  if (found.length > 1 && !replaceAll) {
    const lines: number[] = [];
    let line = 1;
    let from = 0;
    for (const index of found) {
      line = lineAt(work, index, from, line);
      from = index;
      lines.push(line);
    }
    const listed =
      lines.slice(0, maxListedLines).join(', ') + (lines.length > maxListedLines ? `, … (${lines.length} in all)` : '');
    throw new AppError(
      'ambiguous_match',
      `old_string occurs ${found.length} times in ${displayPath} (starting at lines ${listed}); the file was not modified. Include more surrounding lines to make it unique, or set replace_all to true to replace every occurrence.`,
      { path: displayPath, lines },
    );
  }
  const pieces: string[] = [];
  const lines: number[] = [];
  let cursor = 0;
  let newLine = 1;
  for (const index of found) {
    const kept = work.slice(cursor, index);
    pieces.push(kept, replacement);
    newLine += occurrences(kept, '\n').length;
    lines.push(newLine);
    newLine += occurrences(replacement, '\n').length;
    cursor = index + search.length;
  }
  pieces.push(work.slice(cursor));
  const after = pieces.join('');
  return {
    text: bom + (isCrlf ? after.replaceAll('\n', '\r\n') : after),
    replacements: found.length,
    lines,
    before: work,
    after,
  };
}
