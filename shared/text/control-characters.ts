/**
 * Control characters in names and texts that reach a screen: a terminal acts on them (ESC starts
 * a colour or a cursor move, CR rewrites the line), and bidi controls reorder what a page shows.
 * Vigil never shows them raw: it escapes them for display, and memory refuses most of them.
 */

/** The names of the C0 controls (U+0000–U+001F), by code point. */
const c0Names = [
  'NUL',
  'SOH',
  'STX',
  'ETX',
  'EOT',
  'ENQ',
  'ACK',
  'BEL',
  'BS',
  'HT',
  'LF',
  'VT',
  'FF',
  'CR',
  'SO',
  'SI',
  'DLE',
  'DC1',
  'DC2',
  'DC3',
  'DC4',
  'NAK',
  'SYN',
  'ETB',
  'CAN',
  'EM',
  'SUB',
  'ESC',
  'FS',
  'GS',
  'RS',
  'US',
] as const;

/**
 * Short escapes a reader knows; everything else is `\uHHHH`. Both are JSON's own escapes, so
 * escaping a JSON document leaves it valid JSON with the same values.
 */
const shortEscapes: Readonly<Record<number, string>> = { 0x09: '\\t', 0x0a: '\\n', 0x0d: '\\r' };

/** Whether a code point is a C0 control, DEL, a C1 control, or a bidi embedding, override or isolate. */
export function isDisplayControl(codePoint: number): boolean {
  return (
    codePoint <= 0x1f ||
    (codePoint >= 0x7f && codePoint <= 0x9f) ||
    (codePoint >= 0x202a && codePoint <= 0x202e) ||
    (codePoint >= 0x2066 && codePoint <= 0x2069)
  );
}

/** `U+001B ESC`, `U+007F DEL`, `U+202E`: a control character as a message names it. */
export function describeControlCharacter(codePoint: number): string {
  const hex = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = codePoint <= 0x1f ? c0Names[codePoint] : codePoint === 0x7f ? 'DEL' : undefined;
  return name === undefined ? hex : `${hex} ${name}`;
}

/** A control character found in a text: its code point and its 1-based position in characters (code points). */
export interface FoundControl {
  readonly codePoint: number;
  readonly position: number;
}

/** The first C0 control in `text` other than those in `allowed` (default: tab and newline), or undefined. */
export function findC0Control(text: string, allowed: string = '\t\n'): FoundControl | undefined {
  let position = 0;
  for (const character of text) {
    position += 1;
    const codePoint = character.codePointAt(0) ?? 0;
    if (codePoint <= 0x1f && !allowed.includes(character)) return { codePoint, position };
  }
  return undefined;
}

/** How `escapeControls` treats line breaks. */
export interface EscapeOptions {
  /** Keep newlines and tabs as they are (multi-line texts); default false: a name stays on one line. */
  readonly keepLineBreaks?: boolean;
}

function escapeOne(codePoint: number): string {
  return shortEscapes[codePoint] ?? `\\u${codePoint.toString(16).padStart(4, '0')}`;
}

/**
 * A name or text made safe to show: every control character (C0, DEL, C1, bidi controls) becomes
 * a visible escape (`\x1b`, `\r`, `\n`, `\u{202e}`), so nothing a file name or an entry holds can
 * colour, move or rewrite what a terminal or a page shows. Ordinary text comes back unchanged.
 */
export function escapeControls(text: string, options: EscapeOptions = {}): string {
  let escaped = '';
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    // Every control is in the Basic Multilingual Plane: one UTF-16 unit, never half of a pair.
    const unit = text.charCodeAt(index);
    if (!isDisplayControl(unit) || (options.keepLineBreaks === true && (unit === 0x0a || unit === 0x09))) continue;
    escaped += text.slice(start, index) + escapeOne(unit);
    start = index + 1;
  }
  return start === 0 ? text : escaped + text.slice(start);
}
