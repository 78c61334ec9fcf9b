import type { HereDocument } from './shell-tokens';
import { findSubstitutions } from './shell-substitutions';

/** A word token while lexing: a here-document body found later may still add substitutions. */
export interface MutableWordToken {
  readonly kind: 'word';
  readonly text: string;
  readonly isQuoted: boolean;
  isDynamic: boolean;
  readonly hasGlob: boolean;
  readonly substitutions: string[];
  hereDocument?: HereDocument;
  readonly quoteStart?: number;
}

/** The delimiter word of a `<<` or `<<-` whose body starts after the current line. */
export interface PendingHeredoc {
  readonly token: MutableWordToken;
  readonly stripTabs: boolean;
}

/**
 * Reads the bodies of the here-documents opened on the line just ended, from `index` on, into their
 * delimiter tokens (an unquoted body's substitutions are kept); returns the index after the last body.
 */
export function readHeredocBodies(source: string, index: number, heredocs: readonly PendingHeredoc[]): number {
  let cursor = index;
  for (const pending of heredocs) {
    const delimiter = pending.token.text;
    const body: string[] = [];
    while (cursor < source.length) {
      const newline = source.indexOf('\n', cursor);
      const lineEnd = newline === -1 ? source.length : newline;
      const line = source.slice(cursor, lineEnd);
      cursor = newline === -1 ? source.length : newline + 1;
      const text = pending.stripTabs ? line.replace(/^\t+/u, '') : line;
      if (text === delimiter) break;
      body.push(text);
    }
    pending.token.hereDocument = {
      body: body.map((line) => `${line}\n`).join(''),
      isExpanded: !pending.token.isQuoted,
    };
    if (!pending.token.isQuoted) {
      const found = findSubstitutions(body.join('\n'));
      pending.token.substitutions.push(...found);
      if (found.length > 0) pending.token.isDynamic = true;
    }
  }
  return cursor;
}
