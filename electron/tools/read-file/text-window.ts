/** The first `max` UTF-16 units of a text, one fewer if the cut would split a surrogate pair. */
function cutText(text: string, max: number): string {
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** What a scan of a text file's lines found: a window of numbered lines and facts about the whole file. */
export interface TextWindow {
  readonly lines: readonly string[];
  readonly totalLines: number;
  /** The line after the window, when lines were left out after it. */
  readonly nextLine?: number;
  readonly lineEndings: 'lf' | 'crlf' | 'mixed' | 'none';
  readonly bom: boolean;
  readonly shortenedLines: number;
}

/** Limits of one window. */
export interface TextWindowLimits {
  /** The first line to keep (1-based). */
  readonly offset: number;
  /** Lines kept at most. */
  readonly limit: number;
  /** Characters kept per line; longer lines are cut and marked. */
  readonly maxLineChars: number;
  /** Characters of numbered output kept at most (at least one line is always kept). */
  readonly maxChars: number;
}

/**
 * Collects a window of numbered lines from text fed to it in pieces, counting every line of the
 * whole text. Memory stays bounded by the window: an endless line is cut as it streams in.
 */
export class TextWindowBuilder {
  private readonly kept: string[] = [];
  private pending = '';
  /** Characters of the current line dropped because it was already too long. */
  private pendingDropped = 0;
  private lineNumber = 0;
  private chars = 0;
  private nextLine: number | undefined;
  private crlf = 0;
  private lf = 0;
  private bom = false;
  private shortened = 0;

  constructor(private readonly limits: TextWindowLimits) {}

  /** Feeds the next piece of text. */
  push(text: string): void {
    this.pending += text;
    let start = 0;
    for (let index = this.pending.indexOf('\n'); index !== -1; index = this.pending.indexOf('\n', start)) {
      this.take(this.pending.slice(start, index), true);
      start = index + 1;
    }
    this.pending = this.pending.slice(start);
    const cap = this.limits.maxLineChars + 1;
    if (this.pending.length > cap * 2) {
      // Keep the head for display and the last character to tell a CRLF ending.
      this.pendingDropped += this.pending.length - cap - 1;
      this.pending = this.pending.slice(0, cap) + this.pending.slice(-1);
    }
  }

  /** Ends the text and returns the window. */
  finish(): TextWindow {
    if (this.pending !== '' || this.pendingDropped > 0) this.take(this.pending, false);
    const lineEndings = this.crlf + this.lf === 0 ? 'none' : this.lf === 0 ? 'crlf' : this.crlf === 0 ? 'lf' : 'mixed';
    return {
      lines: this.kept,
      totalLines: this.lineNumber,
      nextLine: this.nextLine,
      lineEndings,
      bom: this.bom,
      shortenedLines: this.shortened,
    };
  }

  private take(raw: string, hasNewline: boolean): void {
    this.lineNumber += 1;
    const dropped = this.pendingDropped;
    this.pendingDropped = 0;
    let line = raw;
    if (hasNewline) {
      if (line.endsWith('\r')) {
        this.crlf += 1;
        line = line.slice(0, -1);
      } else {
        this.lf += 1;
      }
    }
    if (this.lineNumber === 1 && line.startsWith('\uFEFF')) {
      this.bom = true;
      line = line.slice(1);
    }
    if (this.lineNumber < this.limits.offset || this.nextLine !== undefined) return;
    if (this.kept.length >= this.limits.limit) {
      this.nextLine = this.lineNumber;
      return;
    }
    const length = line.length + dropped;
    if (length > this.limits.maxLineChars) {
      this.shortened += 1;
      const head = cutText(line, this.limits.maxLineChars);
      line = `${head}… [line shortened: ${length - head.length} more characters]`;
    }
    const numbered = `${String(this.lineNumber).padStart(6)}\t${line}`;
    if (this.kept.length > 0 && this.chars + numbered.length + 1 > this.limits.maxChars) {
      this.nextLine = this.lineNumber;
      return;
    }
    this.kept.push(numbered);
    this.chars += numbered.length + 1;
  }
}
