import { readHeredocBodies, type MutableWordToken, type PendingHeredoc } from './shell-heredoc';
import { findSubstitutions, readBalanced, skipBackticks, unescapeBackticks } from './shell-substitutions';
import type { ControlOperator, LexResult, RedirectOperator, ShellToken } from './shell-tokens';

const controlOperators: readonly ControlOperator[] = [';;&', '&&', '||', ';;', ';&', '|&', ';', '|', '&', '(', ')'];
const redirectOperators: readonly RedirectOperator[] = [
  '&>>',
  '<<<',
  '<<-',
  '&>',
  '>>',
  '>|',
  '>&',
  '<<',
  '<>',
  '<&',
  '>',
  '<',
];
const blanks = new Set([' ', '\t', '\r']);
/** The escapes of `$'…'` strings that matter for reading words. */
const ansiEscapes: Readonly<Record<string, string | undefined>> = { n: '\n', t: '\t', r: '\r' };

interface WordBuilder {
  text: string;
  isStarted: boolean;
  isQuoted: boolean;
  isDynamic: boolean;
  hasGlob: boolean;
  substitutions: string[];
  quoteStart?: number;
}

/** The `}` that closes a `${` whose inside starts at `from`, counting nested `${…}`; -1 when none. */
function findBraceClose(source: string, from: number): number {
  let depth = 1;
  for (let cursor = from; cursor < source.length; cursor += 1) {
    const char = source[cursor];
    if (char === '\\') cursor += 1;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return cursor;
    }
  }
  return -1;
}

function emptyWord(): WordBuilder {
  return { text: '', isStarted: false, isQuoted: false, isDynamic: false, hasGlob: false, substitutions: [] };
}

/**
 * Splits a POSIX shell command line (with the bash extensions agents use) into words, operators
 * and redirections, the way the shell itself would: quotes, escapes, line continuations, comments,
 * `$(…)` / backticks / `<(…)` at any depth (inside double quotes too), here-documents (an unquoted
 * body's substitutions are kept), and the file-descriptor number of a redirection (`2>`).
 */
// eslint-disable-next-line max-lines-per-function -- the lexer is one table-driven state machine over the input; split, its state would be threaded through every step (docs/contributing.md)
export function lexShell(source: string): LexResult {
  const tokens: ShellToken[] = [];
  const problems: string[] = [];
  const heredocs: PendingHeredoc[] = [];
  let word = emptyWord();
  let isHeredocDelimiterNext: { stripTabs: boolean } | undefined;
  let index = 0;

  const markQuoted = (): void => {
    if (!word.isQuoted) word.quoteStart = word.text.length;
    word.isQuoted = true;
  };

  const finishWord = (): void => {
    if (!word.isStarted) return;
    const token: MutableWordToken = {
      kind: 'word',
      text: word.text,
      isQuoted: word.isQuoted,
      isDynamic: word.isDynamic,
      hasGlob: word.hasGlob,
      substitutions: word.substitutions,
      ...(word.quoteStart === undefined ? {} : { quoteStart: word.quoteStart }),
    };
    tokens.push(token);
    if (isHeredocDelimiterNext !== undefined) {
      heredocs.push({ token, stripTabs: isHeredocDelimiterNext.stripTabs });
      isHeredocDelimiterNext = undefined;
    }
    word = emptyWord();
  };

  /** `$…` at `index`: a substitution, an expansion, or a plain `$`. Returns the index after it. */
  const readDollar = (at: number): number => {
    const next = source[at + 1];
    word.isStarted = true;
    if (next === '(' && source[at + 2] === '(') {
      const group = readBalanced(source, at + 1);
      word.substitutions.push(...findSubstitutions(group.inner));
      word.isDynamic = true;
      word.text += source.slice(at, group.end);
      return group.end;
    }
    if (next === '(') {
      const group = readBalanced(source, at + 1);
      if (!group.isClosed) problems.push('a "$(" is never closed');
      word.substitutions.push(group.inner);
      word.isDynamic = true;
      word.text += source.slice(at, group.end);
      return group.end;
    }
    if (next === '{') {
      const close = findBraceClose(source, at + 2);
      const end = close === -1 ? source.length : close + 1;
      if (close === -1) problems.push('a "${" is never closed');
      word.substitutions.push(...findSubstitutions(source.slice(at + 2, end)));
      word.isDynamic = true;
      word.text += source.slice(at, end);
      return end;
    }
    const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/u.exec(source.slice(at + 1));
    if (name !== null) {
      word.isDynamic = true;
      word.text += `$${name[0]}`;
      return at + 1 + name[0].length;
    }
    word.text += '$';
    return at + 1;
  };

  const readBacktick = (at: number): number => {
    const end = skipBackticks(source, at);
    if (source[end - 1] !== '`' || end === at + 1) problems.push('a backtick is never closed');
    word.isStarted = true;
    word.isDynamic = true;
    word.substitutions.push(unescapeBackticks(source.slice(at + 1, Math.max(at + 1, end - 1))));
    word.text += source.slice(at, end);
    return end;
  };

  const readDoubleQuoted = (at: number): number => {
    word.isStarted = true;
    markQuoted();
    let cursor = at + 1;
    while (cursor < source.length) {
      const char = source[cursor] ?? '';
      if (char === '"') return cursor + 1;
      if (char === '\\') {
        const escaped = source[cursor + 1] ?? '';
        if (escaped === '\n') cursor += 2;
        else if ('$`"\\'.includes(escaped) && escaped !== '') {
          word.text += escaped;
          cursor += 2;
        } else {
          word.text += '\\';
          cursor += 1;
        }
      } else if (char === '$') cursor = readDollar(cursor);
      else if (char === '`') cursor = readBacktick(cursor);
      else {
        word.text += char;
        cursor += 1;
      }
    }
    problems.push('a double quote is never closed');
    return cursor;
  };

  while (index < source.length) {
    const char = source[index] ?? '';
    const rest = source.slice(index, index + 3);
    if (char === '\\') {
      if (source[index + 1] === '\n') index += 2;
      else {
        word.isStarted = true;
        markQuoted();
        word.text += source[index + 1] ?? '';
        index += 2;
      }
    } else if (char === "'") {
      const close = source.indexOf("'", index + 1);
      if (close === -1) problems.push('a single quote is never closed');
      word.isStarted = true;
      markQuoted();
      word.text += source.slice(index + 1, close === -1 ? source.length : close);
      index = close === -1 ? source.length : close + 1;
    } else if (char === '"') {
      index = readDoubleQuoted(index);
    } else if (char === '$' && source[index + 1] === "'") {
      const match = /^\$'((?:[^'\\]|\\.)*)'?/su.exec(source.slice(index)) ?? ['', ''];
      word.isStarted = true;
      markQuoted();
      // Escapes beyond \n, \t, \r, \\ and \' spell characters by number (`$'\x72\x6d'` is `rm`): what
      // the word says is only known when the shell decodes it, so it is treated as run-time text.
      if (/\\[^ntr'\\]/u.test(match[1])) word.isDynamic = true;
      word.text += match
        .slice(1, 2)
        .join('')
        .replace(/\\(.)/gsu, (_all, escaped: string) => ansiEscapes[escaped] ?? escaped);
      index += match[0].length;
    } else if (char === '$') {
      index = readDollar(index);
    } else if (char === '`') {
      index = readBacktick(index);
    } else if ((char === '<' || char === '>') && source[index + 1] === '(') {
      const group = readBalanced(source, index + 1);
      word.isStarted = true;
      word.isDynamic = true;
      word.substitutions.push(group.inner);
      word.text += source.slice(index, group.end);
      index = group.end;
    } else if (char === '#' && !word.isStarted) {
      const newline = source.indexOf('\n', index);
      index = newline === -1 ? source.length : newline;
    } else if (char === '\n') {
      finishWord();
      tokens.push({ kind: 'operator', op: '\n' });
      index += 1;
      index = readHeredocBodies(source, index, heredocs.splice(0));
    } else if (blanks.has(char)) {
      finishWord();
      index += 1;
    } else if (char === '(' && source[index + 1] === '(' && !word.isStarted) {
      const group = readBalanced(source, index + 1);
      word.isStarted = true;
      word.isDynamic = true;
      word.substitutions.push(...findSubstitutions(group.inner));
      word.text += `((${group.inner}))`;
      index = Math.min(source.length, group.end + 1);
    } else {
      const redirect = redirectOperators.find((op) => rest.startsWith(op));
      const control = controlOperators.find((op) => rest.startsWith(op));
      if (redirect !== undefined) {
        const isFd = word.isStarted && !word.isQuoted && /^[0-9]+$/u.test(word.text);
        const fd = isFd ? Number(word.text) : undefined;
        if (isFd) word = emptyWord();
        finishWord();
        tokens.push(fd === undefined ? { kind: 'redirect', op: redirect } : { kind: 'redirect', op: redirect, fd });
        if (redirect === '<<' || redirect === '<<-') isHeredocDelimiterNext = { stripTabs: redirect === '<<-' };
        index += redirect.length;
      } else if (control !== undefined) {
        finishWord();
        tokens.push({ kind: 'operator', op: control });
        index += control.length;
      } else {
        word.isStarted = true;
        if (char === '*' || char === '?' || char === '[') word.hasGlob = true;
        if (char === '{' && /^\{[^{}\s]*(,|\.\.)[^{}\s]*\}/u.test(source.slice(index))) word.isDynamic = true;
        word.text += char;
        index += 1;
      }
    }
  }
  finishWord();
  if (heredocs.length > 0) readHeredocBodies(source, index, heredocs.splice(0));
  return { tokens, problems };
}
