/**
 * Text measured the way Hermes measures it. Hermes is Python: `len(s)` counts code points and
 * `s.strip()` removes what `str.isspace()` accepts. JavaScript's `.length` counts UTF-16 units
 * (an emoji is 2) and `.trim()` uses a different whitespace set (it strips U+FEFF, Python does
 * not; Python strips U+001C–U+001F, JavaScript does not). Limits, previews and the drift check
 * must agree with Hermes to the character, so they go through these helpers only.
 */

import { AppError } from '../../shared/errors';
import { describeControlCharacter, findC0Control } from '../../shared/text/control-characters';

/** Python's `str.isspace()` set: Unicode White_Space plus the bidi separators U+001C–U+001F. */
const pythonWhitespace = new Set<number>([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
  0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

function isPythonSpace(unit: number): boolean {
  // Every whitespace character is in the Basic Multilingual Plane, so one UTF-16 unit suffices.
  return pythonWhitespace.has(unit);
}

/**
 * The text as Python reads a file in text mode (`Path.read_text()`, universal newlines): every
 * `\r\n` and every lone `\r` becomes `\n`. Hermes parses what that read returns, so a file saved
 * with Windows line endings has the same entries as one saved with `\n`.
 */
export function universalNewlines(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** The number of characters as Python's `len()` counts them (code points, not UTF-16 units). */
export function countChars(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    // A low surrogate that follows a high surrogate is the second half of one code point.
    if (unit >= 0xdc00 && unit <= 0xdfff && index > 0) {
      const previous = text.charCodeAt(index - 1);
      if (previous >= 0xd800 && previous <= 0xdbff) continue;
    }
    count += 1;
  }
  return count;
}

/** Python's `s.strip()`: removes leading and trailing whitespace as `str.isspace()` defines it. */
export function pythonStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPythonSpace(text.charCodeAt(start))) start += 1;
  while (end > start && isPythonSpace(text.charCodeAt(end - 1))) end -= 1;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** The first `max` characters (code points, never half an emoji), with `...` when cut, as Hermes previews. */
export function previewText(text: string, max = 80): string {
  let taken = 0;
  let end = 0;
  for (const character of text) {
    if (taken === max) return `${text.slice(0, end)}...`;
    taken += 1;
    end += character.length;
  }
  return text;
}

/** A number with thousands separators, as Hermes prints usage (`2,200`). */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/**
 * Refuses memory text that would store a C0 control other than tab and newline (ESC, BEL, CR,
 * NUL, …; what `s.strip()` removes at the ends is not stored): entries are shown in terminals and
 * prompts, where such a character would act instead of show. The error names the character and
 * its 1-based position in what was sent.
 */
export function refuseControlCharacters(raw: string, field: string, what: string): void {
  const stored = pythonStrip(raw);
  const inStored = findC0Control(stored);
  if (inStored === undefined) return;
  const found = {
    codePoint: inStored.codePoint,
    position: inStored.position + countChars(raw.slice(0, raw.indexOf(stored))),
  };
  const described = describeControlCharacter(found.codePoint);
  const hint = found.codePoint === 0x0d ? ' (write line breaks as a newline alone, not CR LF)' : '';
  throw new AppError(
    'invalid_request',
    `${what} holds the control character ${described} at position ${found.position} (field "${field}"); a terminal showing the entry would act on it. Nothing was changed; remove it${hint}. Tabs and newlines are fine.`,
    { field, codePoint: found.codePoint, position: found.position },
  );
}
