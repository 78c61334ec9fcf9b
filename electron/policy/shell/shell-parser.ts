import { lexShell } from './shell-lexer';
import type { ShellToken, ShellWord } from './shell-tokens';
import { FrameStack, openers, type Frame } from './shell-frames';
import type { ParsedShell, ShellList, ShellRedirect, SimpleCommand, StepJoin } from './shell-syntax';

/** Nesting deeper than this is refused as unparseable (fail closed), not followed. */
const maxShellDepth = 8;

function operatorWord(text: string): ShellWord {
  return { kind: 'word', text, isQuoted: true, isDynamic: false, hasGlob: false, substitutions: [] };
}

/** Whether a word assigns a variable (`NAME=value`, `A[1]+=x`, `PATH="$X"`): its name and `=` are written bare. */
function isAssignment(word: ShellWord): boolean {
  const bare = word.quoteStart === undefined ? word.text : word.text.slice(0, word.quoteStart);
  return /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/u.test(bare);
}

/**
 * Parses a command line the way the shell would run it: lists and pipelines (`&&`, `||`, `;`,
 * `|`, `&`, newlines), subshells, groups, `if`/`case`/loops and function definitions as compound
 * steps (redirections written after them included), and every command substitution at any depth
 * (parsed recursively). It never runs anything and never touches the file system.
 */
// eslint-disable-next-line max-lines-per-function -- the parser is one table-driven state machine over the input; split, its state would be threaded through every step (docs/contributing.md)
export function parseShell(source: string, depth = 0): ParsedShell {
  if (depth > maxShellDepth) {
    return {
      script: { steps: [] },
      commands: [],
      functions: [],
      assignments: [],
      problems: [`commands are nested more than ${maxShellDepth} levels deep`],
    };
  }
  const lexed = lexShell(source);
  const commands: SimpleCommand[] = [];
  const functions: string[] = [];
  const assignments: ShellWord[] = [];
  const problems: string[] = [...lexed.problems];
  const frames = new FrameStack();
  let words: ShellWord[] = [];
  let redirects: ShellRedirect[] = [];
  let expansions: ShellList[] = [];
  let join: StepJoin = ';';
  let isNegated = false;
  let pipeline = 0;
  /** Where the reader is inside a `case` header or pattern, a `for` header, or a `[[ … ]]`. */
  const flags = { isCaseHeader: false, isCasePattern: false, isForHeader: false, isConditionalExpression: false };
  let pendingFunction: string | undefined;
  /** The compound command just closed: redirections written right after it are its own. */
  let lastClosed: ShellRedirect[] | undefined;

  const collect = (word: ShellWord): void => {
    for (const inner of word.substitutions) {
      const parsed = parseShell(inner, depth + 1);
      expansions.push(parsed.script);
      commands.push(...parsed.commands);
      functions.push(...parsed.functions);
      assignments.push(...parsed.assignments);
      problems.push(...parsed.problems);
    }
  };

  const finish = (isBackground: boolean): void => {
    if (words.length > 0 || redirects.length > 0 || expansions.length > 0) {
      const fn = frames.insideFunction();
      const command: SimpleCommand = {
        words,
        redirects,
        pipeline,
        isBackground,
        depth,
        insideFunction: fn,
      };
      if (words.length > 0 || redirects.length > 0) commands.push(command);
      frames.top().steps.push({ kind: 'command', join, isNegated, expansions, command });
      join = ';';
      isNegated = false;
    }
    words = [];
    redirects = [];
    expansions = [];
    flags.isForHeader = false;
    flags.isConditionalExpression = false;
  };

  const open = (kind: Frame['kind'], closer: string, name = ''): void => {
    finish(false);
    frames.push({ kind, closer, steps: [], join, isNegated, name });
    join = ';';
    isNegated = false;
  };

  const pop = (): void => {
    const own = frames.pop();
    if (own !== undefined) lastClosed = own;
  };

  const close = (closer: string): void => {
    finish(false);
    const at = frames.lastIndexOf(closer);
    if (at <= 0) {
      problems.push(`"${closer}" closes nothing`);
      return;
    }
    while (frames.size - 1 > at) {
      problems.push(`a "${frames.top().closer}" is missing`);
      pop();
    }
    pop();
  };

  const readWord = (token: ShellWord, tokens: readonly ShellToken[], index: number): number => {
    if (flags.isForHeader) return index;
    if (flags.isCaseHeader) {
      if (token.text === 'in' && !token.isQuoted) {
        flags.isCaseHeader = false;
        flags.isCasePattern = true;
      }
      return index;
    }
    if (flags.isCasePattern) {
      if (token.text === 'esac' && !token.isQuoted) {
        flags.isCasePattern = false;
        close('esac');
      }
      return index;
    }
    if (words.length === 0 && isAssignment(token)) {
      assignments.push(token);
      return index;
    }
    if (words.length === 0 && !token.isQuoted) {
      const opener = openers[token.text];
      if (opener !== undefined) {
        open(opener.kind, opener.closer);
        if (token.text === 'case') flags.isCaseHeader = true;
        if (token.text === 'for' || token.text === 'select') flags.isForHeader = true;
        return index;
      }
      switch (token.text) {
        case '{':
          open(pendingFunction === undefined ? 'group' : 'function', '}', pendingFunction);
          pendingFunction = undefined;
          return index;
        case '}':
        case 'fi':
        case 'done':
        case 'esac':
          close(token.text);
          return index;
        case 'then':
        case 'else':
        case 'elif':
        case 'do':
          join = ';';
          return index;
        case '!':
          isNegated = !isNegated;
          return index;
        case 'time':
        case 'coproc':
          return index;
        case 'function': {
          const name = tokens[index + 1];
          if (name?.kind !== 'word') break;
          pendingFunction = name.text;
          functions.push(name.text);
          const isParens = tokens[index + 2]?.kind === 'operator' && tokens[index + 3]?.kind === 'operator';
          return index + (isParens ? 3 : 1);
        }
        default:
          break;
      }
      const openParen = tokens[index + 1];
      const closeParen = tokens[index + 2];
      if (
        openParen?.kind === 'operator' &&
        openParen.op === '(' &&
        closeParen?.kind === 'operator' &&
        closeParen.op === ')'
      ) {
        pendingFunction = token.text;
        functions.push(token.text);
        return index + 2;
      }
      if (token.text === '[[') flags.isConditionalExpression = true;
    }
    if (token.text === ']]' && !token.isQuoted) flags.isConditionalExpression = false;
    words.push(token);
    return index;
  };

  const tokens = lexed.tokens;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (token === undefined) break;
    if (token.kind === 'word') {
      collect(token);
      lastClosed = undefined;
      index = readWord(token, tokens, index);
      continue;
    }
    if (token.kind === 'redirect') {
      if (flags.isConditionalExpression) {
        words.push(operatorWord(token.op));
        continue;
      }
      const target = tokens[index + 1];
      let redirect: ShellRedirect = { op: token.op, fd: token.fd };
      if (target?.kind === 'word') {
        collect(target);
        index += 1;
        redirect = { op: token.op, fd: token.fd, target };
      } else problems.push(`the redirection "${token.op}" has no target`);
      if (lastClosed !== undefined && words.length === 0 && redirects.length === 0) lastClosed.push(redirect);
      else redirects.push(redirect);
      continue;
    }
    lastClosed = undefined;
    const op = token.op;
    if (flags.isCasePattern && (op === '|' || op === '(')) continue;
    if (flags.isConditionalExpression && (op === '&&' || op === '||' || op === '(' || op === ')')) {
      words.push(operatorWord(op));
      continue;
    }
    switch (op) {
      case '|':
      case '|&':
        finish(false);
        join = '|';
        break;
      case '&':
        finish(true);
        pipeline += 1;
        join = '&';
        break;
      case '&&':
      case '||':
        finish(false);
        pipeline += 1;
        join = op;
        break;
      case ';;':
      case ';&':
      case ';;&':
        finish(false);
        pipeline += 1;
        flags.isCasePattern = true;
        break;
      case '(':
        pipeline += 1;
        open(pendingFunction === undefined ? 'subshell' : 'function', ')', pendingFunction);
        pendingFunction = undefined;
        break;
      case ')':
        if (flags.isCasePattern) {
          flags.isCasePattern = false;
          join = ';';
          break;
        }
        close(')');
        pipeline += 1;
        break;
      case ';':
      case '\n':
        finish(false);
        pipeline += 1;
        break;
    }
  }
  finish(false);
  while (frames.size > 1) {
    problems.push(`a "${frames.top().closer}" is missing`);
    pop();
  }
  if (flags.isCaseHeader) problems.push('a "case" has no "in"');
  return { script: { steps: frames.top().steps }, commands, functions, assignments, problems };
}
