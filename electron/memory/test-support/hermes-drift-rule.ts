/**
 * Hermes Agent's memory drift rule, implemented for the tests from its statement alone (not from
 * Vigil's code): a file drifts when raw.strip() differs from its entries (split on "\n§\n", each
 * stripped, empties dropped) re-joined with "\n§\n", or when one entry is longer than the file's
 * whole limit. `raw` is what Python's `Path.read_text(encoding="utf-8")` returns: text mode, so
 * universal newlines ("\r\n" and "\r" read as "\n"). `strip()` and `len()` are Python's: Unicode
 * whitespace (str.isspace) and code points.
 */

/** Python's str.isspace() code points, written out from Python's definition (bidi WS/B/S or category Zs). */
const pythonSpace = new Set([
  9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);
for (let point = 0x2000; point <= 0x200a; point += 1) pythonSpace.add(point);

function isSpace(character: string | undefined): boolean {
  return character !== undefined && pythonSpace.has(character.codePointAt(0) ?? -1);
}

function strip(text: string): string {
  const chars = Array.from(text);
  let start = 0;
  let end = chars.length;
  while (start < end && isSpace(chars[start])) start += 1;
  while (end > start && isSpace(chars[end - 1])) end -= 1;
  return chars.slice(start, end).join('');
}

/** What Python's text-mode read of these UTF-8 bytes returns. */
export function pythonRead(bytes: Uint8Array | string): string {
  const text = typeof bytes === 'string' ? bytes : new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  return text.split('\r\n').join('\n').split('\r').join('\n');
}

/** Whether Hermes calls a file with these bytes drifted, for a file whose limit is `limit`. */
export function hermesDrifts(bytes: Uint8Array | string, limit: number): boolean {
  const raw = pythonRead(bytes);
  if (strip(raw) === '') return false;
  const parsed = raw
    .split('\n§\n')
    .map((entry) => strip(entry))
    .filter((entry) => entry !== '');
  const roundtrip = parsed.join('\n§\n');
  const longest = Math.max(0, ...parsed.map((entry) => Array.from(entry).length));
  return strip(raw) !== roundtrip || longest > limit;
}

/** The entries Hermes loads from these bytes (split, stripped, empties dropped, duplicates collapsed). */
export function hermesEntries(bytes: Uint8Array | string): string[] {
  const raw = pythonRead(bytes);
  if (strip(raw) === '') return [];
  return [
    ...new Set(
      raw
        .split('\n§\n')
        .map((entry) => strip(entry))
        .filter((entry) => entry !== ''),
    ),
  ];
}
