import { hasBinaryBytes, isValidUtf8 } from '../../files';

/**
 * A text file as lines, for restoring some of its lines: each line's content and its own
 * terminator, the byte-order mark and the final newline kept aside, so a file written back from
 * these lines is the same bytes. Content that could not be written back byte for byte (binary,
 * UTF-16, anything that is not UTF-8) is refused with the reason.
 */

/** One line: its text without the terminator, and the terminator it had (`''` only for a last line without one). */
export interface TextLine {
  readonly content: string;
  readonly terminator: '' | '\n' | '\r\n';
}

/** A file split into lines, with what a line restore keeps as it is. */
export interface LineText {
  readonly kind: 'text';
  readonly lines: readonly TextLine[];
  /** The file starts with a UTF-8 byte-order mark (kept, never counted in line 1). */
  readonly hasBom: boolean;
  /** The last line ends with a terminator (a file without one keeps lacking it). */
  readonly hasFinalNewline: boolean;
  /** The terminator most of its lines use (`\n` when it has none). */
  readonly eol: '\n' | '\r\n';
}

/** Why a file's lines cannot be restored one by one. */
export type LineTextProblem = 'binary' | 'utf16' | 'not-utf8';

/** A refusal, with one sentence for people. */
export interface LineTextRefusal {
  readonly kind: 'refused';
  readonly problem: LineTextProblem;
  readonly message: string;
}

const bom = '\uFEFF';

/** Why `bytes` cannot be restored line by line, or undefined when they can. */
export function lineTextProblem(bytes: Uint8Array): LineTextProblem | undefined {
  const isUtf16Bom =
    bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  if (isUtf16Bom) return 'utf16';
  if (hasBinaryBytes(bytes)) return 'binary';
  return isValidUtf8(bytes) ? undefined : 'not-utf8';
}

const problemWords: Readonly<Record<LineTextProblem, string>> = {
  binary: 'is not text (it holds NUL bytes, as binary files do)',
  utf16: 'is UTF-16 text, and lines are restored in UTF-8 files only, so it could not be written back byte for byte',
  'not-utf8': 'is not valid UTF-8 (another encoding?), so its lines could not be written back byte for byte',
};

/** The sentence that says why a version of `name` cannot have some of its lines restored. */
export function lineTextProblemMessage(name: string, problem: LineTextProblem): string {
  return `${name} ${problemWords[problem]}. Restore the whole file instead.`;
}

/** Splits a file into lines (or says why it cannot be). `name` names the version in the refusal. */
export function toLineText(bytes: Uint8Array, name: string): LineText | LineTextRefusal {
  const problem = lineTextProblem(bytes);
  if (problem !== undefined) return { kind: 'refused', problem, message: lineTextProblemMessage(name, problem) };
  const decoded = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const hasBom = decoded.startsWith(bom);
  const text = hasBom ? decoded.slice(1) : decoded;
  const lines: TextLine[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    if (end === -1) {
      lines.push({ content: text.slice(start), terminator: '' });
      break;
    }
    const isCrlf = end > start && text[end - 1] === '\r';
    if (isCrlf) crlf += 1;
    else lf += 1;
    lines.push({ content: text.slice(start, isCrlf ? end - 1 : end), terminator: isCrlf ? '\r\n' : '\n' });
    start = end + 1;
  }
  const last = lines[lines.length - 1];
  return {
    kind: 'text',
    lines,
    hasBom,
    hasFinalNewline: last === undefined || last.terminator !== '',
    eol: crlf > lf ? '\r\n' : '\n',
  };
}

/** The bytes of lines written back: the byte-order mark if `hasBom`, then every line with its terminator. */
export function fromLines(lines: readonly TextLine[], hasBom: boolean): Uint8Array {
  const text = `${hasBom ? bom : ''}${lines.map((line) => line.content + line.terminator).join('')}`;
  return new Uint8Array(Buffer.from(text, 'utf8'));
}
