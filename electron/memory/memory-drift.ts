import type { DriftKind, DriftReport } from '../../shared/contract/memory-contract';
import { joinEntries, splitEntries } from './memory-format';
import { countChars, formatCount, previewText, pythonStrip, universalNewlines } from './memory-text';

/** One reason a file drifted, in words a person or an agent can act on. */
interface DriftReason {
  readonly kind: DriftKind;
  readonly message: string;
}

/** The report of a file that is tool-shaped. */
export const noDrift: DriftReport = { isDrifted: false, reasons: [] };

/** A memory file larger than this is refused for writing (it cannot be a list of entries under any sane limit). */
export const maxWritableMemoryBytes = 1024 * 1024;

/** The kinds that mean "Vigil cannot read this as text at all": never rewritten by any call, adoption included where noted. */
const badInputKinds: ReadonlySet<DriftKind> = new Set(['not-utf8', 'holds-nul', 'too-large']);

/** Whether a report is only about the Hermes rule (a rewrite could lose text), not about bytes Vigil refuses outright. */
export function isBadInput(report: DriftReport): boolean {
  return report.reasons.some((reason) => badInputKinds.has(reason.kind));
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function describeRoundTrip(stripped: string, rejoined: string): string {
  let offset = 0;
  while (offset < stripped.length && stripped[offset] === rejoined[offset]) offset += 1;
  const { line, column } = lineAndColumn(stripped, offset);
  const found = JSON.stringify(previewText(stripped.slice(offset), 20));
  return (
    `the memory tool would change the file if it read and wrote its entries back (at line ${line}, column ${column} it has ` +
    `${found}): an empty entry between two § lines, or spaces or blank lines around a § line`
  );
}

/**
 * Hermes Agent's drift rule, exactly: the file (read as Python reads it, with universal newlines)
 * drifts when its stripped text differs from its entries re-joined with `\n§\n`, or when one entry
 * is longer than the whole file's limit (no entry the tool wrote can be). Whitespace at the ends
 * of the file is never drift, nor are exact duplicates (they collapse on load, nothing is lost).
 * Vigil flags exactly what Hermes flags, so it never refuses a write Hermes would make.
 */
export function detectDrift(text: string, limit: number): DriftReport {
  const read = universalNewlines(text);
  const stripped = pythonStrip(read);
  if (stripped === '') return noDrift;
  const reasons: DriftReason[] = [];
  const entries = splitEntries(read);
  const rejoined = joinEntries(entries);
  if (rejoined !== stripped) reasons.push({ kind: 'not-round-trip', message: describeRoundTrip(stripped, rejoined) });
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
  return reasons.length === 0 ? noDrift : { isDrifted: true, reasons };
}

/**
 * What makes a file's bytes unwritable before any rule is applied: not UTF-8, a NUL byte, or more
 * than 1 MiB. Such a file is never rewritten by a memory call; undefined when none applies.
 */
export function badInputDrift(bytes: Uint8Array, invalidUtf8At: number): DriftReport | undefined {
  const reasons: DriftReason[] = [];
  if (invalidUtf8At !== -1) {
    reasons.push({
      kind: 'not-utf8',
      message: `the file is not valid UTF-8 (first bad byte at offset ${invalidUtf8At}); it was probably written by a tool using another encoding`,
    });
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1)
    reasons.push({
      kind: 'holds-nul',
      message: `the file holds a NUL byte at offset ${nul}, so it is binary data, not memory text`,
    });
  if (bytes.length > maxWritableMemoryBytes) {
    reasons.push({
      kind: 'too-large',
      message: `the file is ${formatCount(bytes.length)} bytes, over the ${formatCount(maxWritableMemoryBytes)}-byte cap for a memory file`,
    });
  }
  return reasons.length === 0 ? undefined : { isDrifted: true, reasons };
}
