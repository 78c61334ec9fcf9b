import { lexShell, type RedirectOperator, type ShellToken, type ShellWord } from './shell-lexer';

/** A redirection of a simple command (`2>/dev/null`, `> out.txt`, `<<EOF`). */
export interface ShellRedirect {
  readonly op: RedirectOperator;
  /** The file descriptor written before the operator (`2>`), when there is one. */
  readonly fd?: number;
  /** The file, descriptor or here-document delimiter after the operator. */
  readonly target?: ShellWord;
}

/** One simple command: the words a program is started with, and its redirections. */
export interface SimpleCommand {
  /** The program and its arguments, after leading `NAME=value` assignments and reserved words. */
  readonly words: readonly ShellWord[];
  readonly redirects: readonly ShellRedirect[];
  /** Commands joined by `|` share a pipeline number; a command alone has its own. */
  readonly pipeline: number;
  /** Run in the background (`&`). */
  readonly isBackground: boolean;
  /** The shell function whose body holds this command, when it is inside one. */
  readonly insideFunction?: string;
  /** How deep in command substitutions or `sh -c` strings it was found (0: the line itself). */
  readonly depth: number;
}

/** Every simple command of a command line, nested ones included, and what could not be parsed. */
export interface ParsedShell {
  readonly commands: readonly SimpleCommand[];
  /** Names of the shell functions the line defines. */
  readonly functions: readonly string[];
  readonly problems: readonly string[];
}

/** Nesting deeper than this is refused as unparseable (fail closed), not followed. */
export const maxShellDepth = 8;

const skippedAtStart = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'esac', 'time', 'coproc']);

interface Builder {
  words: ShellWord[];
  redirects: ShellRedirect[];
}

/** Collects the command substitutions of a parsed line for recursive parsing. */
type SubstitutionSink = (source: string) => void;

/**
 * Parses a command line into simple commands, the way the shell would run them: lists and
 * pipelines (`&&`, `||`, `;`, `|`, `&`, newlines), subshells and groups, `if`/`while`/`for`/`case`,
 * function definitions, and every command substitution at any depth (parsed recursively).
 * It never runs anything and never touches the file system.
 */
export function parseShell(source: string, depth = 0): ParsedShell {
  const commands: SimpleCommand[] = [];
  const functions: string[] = [];
  const problems: string[] = [];
  if (depth > maxShellDepth) {
    return { commands, functions, problems: [`commands are nested more than ${maxShellDepth} levels deep`] };
  }
  const lexed = lexShell(source);
  problems.push(...lexed.problems);
  const nested: string[] = [];
  const collect: SubstitutionSink = (inner) => nested.push(inner);
  parseTokens(lexed.tokens, depth, commands, functions, problems, collect);
  for (const inner of nested) {
    const parsed = parseShell(inner, depth + 1);
    commands.push(...parsed.commands);
    functions.push(...parsed.functions);
    problems.push(...parsed.problems);
  }
  return { commands, functions, problems };
}

function parseTokens(
  tokens: readonly ShellToken[],
  depth: number,
  commands: SimpleCommand[],
  functions: string[],
  problems: string[],
  collect: SubstitutionSink,
): void {
  let current: Builder = { words: [], redirects: [] };
  let pipeline = 0;
  let isCaseHeader = false;
  let isCasePattern = false;
  let isForHeader = false;
  let isConditionalExpression = false;
  const functionStack: { name: string; braceDepth: number }[] = [];
  let braceDepth = 0;
  let pendingFunction: string | undefined;

  const insideFunction = (): string | undefined => functionStack[functionStack.length - 1]?.name;

  const finish = (isBackground: boolean): void => {
    if (current.words.length > 0 || current.redirects.length > 0) {
      const fn = insideFunction();
      commands.push({ words: current.words, redirects: current.redirects, pipeline, isBackground, depth, ...(fn === undefined ? {} : { insideFunction: fn }) });
    }
    current = { words: [], redirects: [] };
    isForHeader = false;
    isConditionalExpression = false;
  };

  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (token === undefined) break;
    if (token.kind === 'word') {
      for (const inner of token.substitutions) collect(inner);
      if (isForHeader) continue;
      if (isCaseHeader) {
        if (token.text === 'in' && !token.isQuoted) {
          isCaseHeader = false;
          isCasePattern = true;
        }
        continue;
      }
      if (isCasePattern) {
        if (token.text === 'esac' && !token.isQuoted) isCasePattern = false;
        continue;
      }
      const isAtStart = current.words.length === 0;
      if (isAtStart && !token.isQuoted) {
        if (token.text === '{') braceDepth += 1;
        if (token.text === '}') {
          braceDepth -= 1;
          const top = functionStack[functionStack.length - 1];
          if (top !== undefined && top.braceDepth === braceDepth) functionStack.pop();
        }
        if (pendingFunction !== undefined && token.text === '{') {
          functionStack.push({ name: pendingFunction, braceDepth: braceDepth - 1 });
          pendingFunction = undefined;
          continue;
        }
        if (skippedAtStart.has(token.text)) continue;
        if (token.text === 'for' || token.text === 'select') {
          isForHeader = true;
          continue;
        }
        if (token.text === 'case') {
          isCaseHeader = true;
          continue;
        }
        if (token.text === 'function') {
          const name = tokens[index + 1];
          if (name?.kind === 'word') {
            pendingFunction = name.text;
            functions.push(name.text);
            index += tokens[index + 2]?.kind === 'operator' && tokens[index + 3]?.kind === 'operator' ? 3 : 1;
            continue;
          }
        }
        if (/^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/u.test(token.text)) continue;
        const open = tokens[index + 1];
        const close = tokens[index + 2];
        if (open?.kind === 'operator' && open.op === '(' && close?.kind === 'operator' && close.op === ')') {
          pendingFunction = token.text;
          functions.push(token.text);
          index += 2;
          continue;
        }
        if (token.text === '[[') isConditionalExpression = true;
      }
      if (token.text === ']]' && !token.isQuoted) isConditionalExpression = false;
      current.words.push(token);
      continue;
    }
    if (token.kind === 'redirect') {
      const target = tokens[index + 1];
      if (isConditionalExpression) {
        current.words.push({ kind: 'word', text: token.op, isQuoted: true, isDynamic: false, hasGlob: false, substitutions: [] });
        continue;
      }
      if (target?.kind === 'word') {
        for (const inner of target.substitutions) collect(inner);
        index += 1;
        current.redirects.push({ op: token.op, ...(token.fd === undefined ? {} : { fd: token.fd }), target });
      } else {
        problems.push(`the redirection "${token.op}" has no target`);
        current.redirects.push({ op: token.op, ...(token.fd === undefined ? {} : { fd: token.fd }) });
      }
      continue;
    }
    switch (token.op) {
      case '|':
      case '|&':
        finish(false);
        break;
      case '&':
        finish(true);
        pipeline += 1;
        break;
      case ';;':
      case ';&':
      case ';;&':
        finish(false);
        pipeline += 1;
        isCasePattern = true;
        break;
      case ')':
        if (isCasePattern) {
          isCasePattern = false;
          break;
        }
        finish(false);
        pipeline += 1;
        if (functionStack[functionStack.length - 1]?.braceDepth === -1 - braceDepth) functionStack.pop();
        break;
      case '(':
        finish(false);
        pipeline += 1;
        if (pendingFunction !== undefined) {
          functionStack.push({ name: pendingFunction, braceDepth: -1 - braceDepth });
          pendingFunction = undefined;
        }
        break;
      case '&&':
      case '||':
      case ';':
      case '\n':
        finish(false);
        pipeline += 1;
        break;
    }
  }
  finish(false);
  if (isCaseHeader) problems.push('a "case" has no "in"');
}
