import type { DriftKind, DriftReport } from '../../shared/contract/memory-contract';
import { delimiterLikeLine, joinEntries, splitEntries } from './memory-format';
import { countChars, formatCount, previewText, pythonStrip } from './memory-text';

/** One reason a file drifted, in words a person or an agent can act on. */
interface DriftReason {
  readonly kind: DriftKind;
  readonly message: string;
}

/** The report of a file that is tool-shaped. */
export const noDrift: DriftReport = { isDrifted: false, reasons: [] };

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function describeRoundTrip(text: string, rejoined: string): string {
  if (rejoined !== '' && text.startsWith(rejoined) && text.slice(rejoined.length).trim() === '') {
    return 'the file ends with whitespace or a newline after the last entry, which the memory tool never writes';
  }
  let offset = 0;
  while (offset < text.length && text[offset] === rejoined[offset]) offset += 1;
  const { line, column } = lineAndColumn(text, offset);
  const found = JSON.stringify(previewText(text.slice(offset), 20));
  return (
    `the file would change if its entries were read and written back (at line ${line}, column ${column} it has ` +
    `${found}): blank entries, whitespace around a § line or around the file, or a half-written delimiter`
  );
}

/**
 * The drift check of seed 003: a file is drifted when it would not survive a parse and re-join,
 * when one entry is longer than the whole file's limit (no tool-written entry can be), or when an
 * entry holds a delimiter-like line (a `§` line with CRLF or spaces), which would make two entries
 * one. Exact duplicates are not drift: they collapse on load and nothing is lost; nor is a file of
 * whitespace only.
 */
export function detectDrift(text: string, limit: number): DriftReport {
  // A file of whitespace only (an editor's lone newline) holds nothing a write could lose.
  if (pythonStrip(text) === '') return noDrift;
  const reasons: DriftReason[] = [];
  const entries = splitEntries(text);
  const rejoined = joinEntries(entries);
  if (rejoined !== text) reasons.push({ kind: 'not-round-trip', message: describeRoundTrip(text, rejoined) });
  const longest = entries.reduce<{ index: number; chars: number }>(
    (best, entry, index) => {
      const chars = countChars(entry);
      return chars > best.chars ? { index, chars } : best;
    },
    { index: -1, chars: 0 },
  );
  if (longest.chars > limit) {
    reasons.push({
      kind: 'entry-over-limit',
      message:
        `entry ${longest.index + 1} is ${formatCount(longest.chars)} characters, more than the whole file's ` +
        `limit of ${formatCount(limit)}: free-form text was written into the file outside the memory tool`,
    });
  }
  const stray = entries.findIndex((entry) => delimiterLikeLine.test(entry));
  if (stray !== -1) {
    reasons.push({
      kind: 'stray-delimiter',
      message:
        `entry ${stray + 1} contains a line with § that is not an exact delimiter (Windows line endings or ` +
        `spaces around it), so the memory tool would treat several entries as one`,
    });
  }
  return reasons.length === 0 ? noDrift : { isDrifted: true, reasons };
}

/** The report for bytes that are not valid UTF-8. */
export function notUtf8Drift(offset: number): DriftReport {
  return {
    isDrifted: true,
    reasons: [
      {
        kind: 'not-utf8',
        message: `the file is not valid UTF-8 (first bad byte at offset ${offset}); it was probably written by a tool using another encoding`,
      },
    ],
  };
}
