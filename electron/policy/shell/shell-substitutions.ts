/** The end of a balanced `(…)` group and its inner text, or a problem when it never closes. */
export interface BalancedGroup {
  /** Index just past the closing `)`. */
  readonly end: number;
  readonly inner: string;
  readonly isClosed: boolean;
}

/** Skips a quoted string that starts at `start` (on the quote); returns the index past its end. */
function skipQuoted(text: string, start: number): number {
  const quote = text[start];
  let index = start + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === '\\' && quote === '"') {
      index += 2;
      continue;
    }
    if (char === quote) return index + 1;
    index += 1;
  }
  return index;
}

/** Skips a backtick substitution that starts at `start`; returns the index past its end. */
export function skipBackticks(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === '\\') {
      index += 2;
      continue;
    }
    if (char === '`') return index + 1;
    index += 1;
  }
  return index;
}

/**
 * Reads a balanced group whose `(` is at `open`: quotes, escapes, backticks and nested parentheses
 * are honoured, so `$(echo ")" ; rm x)` ends at the right place.
 */
export function readBalanced(text: string, open: number): BalancedGroup {
  let depth = 1;
  let index = open + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === '\\') index += 2;
    else if (char === "'" || char === '"') index = skipQuoted(text, index);
    else if (char === '`') index = skipBackticks(text, index);
    else if (char === '(') {
      depth += 1;
      index += 1;
    } else if (char === ')') {
      depth -= 1;
      if (depth === 0) return { end: index + 1, inner: text.slice(open + 1, index), isClosed: true };
      index += 1;
    } else index += 1;
  }
  return { end: text.length, inner: text.slice(open + 1), isClosed: false };
}

/** Removes the backslashes that escape backticks, `$` and backslashes inside a backtick substitution. */
export function unescapeBackticks(inner: string): string {
  return inner.replace(/\\([`$\\])/gu, '$1');
}

/**
 * Finds the command substitutions (`$(…)`, `` `…` ``) in text that the shell expands but does not
 * split into commands itself: parameter expansions, arithmetic, unquoted here-document bodies.
 * Each source is returned for parsing as a command of its own. Single quotes are not honoured (they
 * are literal in a here-document), so this errs towards finding more, never fewer.
 */
export function findSubstitutions(text: string): string[] {
  const found: string[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (char === '\\') {
      index += 2;
    } else if (char === '`') {
      const end = skipBackticks(text, index);
      found.push(unescapeBackticks(text.slice(index + 1, Math.max(index + 1, end - 1))));
      index = end;
    } else if (char === '$' && text[index + 1] === '(' && text[index + 2] !== '(') {
      const group = readBalanced(text, index + 1);
      found.push(group.inner);
      index = group.end;
    } else {
      index += 1;
    }
  }
  return found;
}
