import type { ShellWord } from './shell';
import { codeArgument, plainWrappers, wrappedStart } from './command-wrappers';

/** A program that runs, found inside a simple command (after `sudo`, `env`, `xargs`, `find -exec` …). */
export interface Invocation {
  /** The program's base name, lower-cased on Windows (`/bin/rm` → `rm`). */
  readonly program: string;
  /** The program word as written. */
  readonly programWord: ShellWord;
  readonly args: readonly ShellWord[];
  /** The wrappers it runs under, outermost first (`sudo`, `xargs`). */
  readonly via: readonly string[];
  /** Its last arguments come from its input (`xargs`) or from a search (`find -exec … {}`), unknown here. */
  readonly isInputFed: boolean;
  /** For `find -exec`: the paths the search starts from. */
  readonly searchRoots?: readonly ShellWord[];
  /** It runs in another directory than the command line: a word (`env -C dir`, `sudo -D dir`), or unknown (`find -execdir`). */
  readonly chdir?: ShellWord | 'unknown';
  /** The text its feeder replaces with input (`{}` for `find -exec`, `xargs -I X`): code holding it is only known at run time. */
  readonly placeholder?: string;
}

/** A program's base name as the policy compares it: `/usr/bin/rm` → `rm`, `RM.EXE` → `rm` on Windows. */
export function programName(text: string, platform: NodeJS.Platform = process.platform): string {
  const base = text.split(/[\\/]/u).pop() ?? text;
  return platform === 'win32' ? base.toLowerCase().replace(/\.(exe|cmd|bat|com)$/u, '') : base;
}

/** Shells whose `-c STRING` runs STRING. */
export const shells: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'ash',
  'mksh',
  'fish',
  'busybox-sh',
  'powershell',
  'pwsh',
]);

/** Programs that run a command given as text, or other code: unwrapping stops there (see `code-runners.ts`). */
function isCodeRunner(program: string, args: readonly ShellWord[]): boolean {
  return (
    shells.has(program) ||
    program === 'eval' ||
    program === 'su' ||
    program === 'watch' ||
    codeArgument(program, args) !== -1
  );
}

/** The directory option of `env -C dir`, `env --chdir=dir`, `sudo -D dir`, `sudo --chdir=dir`. */
function chdirOption(program: string, args: readonly ShellWord[]): ShellWord | undefined {
  if (program !== 'env' && program !== 'sudo') return undefined;
  const short = program === 'env' ? '-C' : '-D';
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index];
    if (word === undefined || !word.text.startsWith('-')) return undefined;
    if (word.text === short || word.text === '--chdir') return args[index + 1];
    if (word.text.startsWith('--chdir=')) return { ...word, text: word.text.slice('--chdir='.length) };
  }
  return undefined;
}

/** What `xargs -I X` / `-i` / `--replace` replaces in its command (its options given), when it does. */
function xargsPlaceholder(args: readonly ShellWord[]): string | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const text = args[index]?.text ?? '';
    if (text === '-I') return args[index + 1]?.text;
    if (text.startsWith('-I')) return text.slice(2);
    if (text === '-i' || text === '--replace') return '{}';
    if (text.startsWith('--replace=') || /^-i./u.test(text)) return text.replace(/^(--replace=|-i)/u, '');
  }
  return undefined;
}

/**
 * Finds every program a simple command runs: the command itself, what wrappers (`sudo`, `env`,
 * `nice`, `timeout`, `xargs` …) run, and what `find -exec` runs (unwrapped in turn). It stops at
 * programs that run code given as text (`sh -c`, `eval`, `watch`, `su -c`, `cmd /c`, `env -S`):
 * `code-runners.ts` says what code they run.
 */
export function unwrapCommand(words: readonly ShellWord[], platform: NodeJS.Platform = process.platform): Invocation[] {
  const invocations: Invocation[] = [];
  let rest = words;
  const via: string[] = [];
  let isInputFed = false;
  let chdir: ShellWord | 'unknown' | undefined;
  let placeholder: string | undefined;
  for (let guard = 0; guard < 16 && rest.length > 0; guard += 1) {
    const [programWord, ...args] = rest;
    if (programWord === undefined) break;
    const program = programName(programWord.text, platform);
    invocations.push({
      program,
      programWord,
      args,
      via: [...via],
      isInputFed,
      chdir,
      placeholder,
    });
    if (isCodeRunner(program, args)) break;
    if (program === 'command' && args.some((word) => word.text === '-v' || word.text === '-V')) break;
    if (program === 'find') {
      const found = findExecInvocations(args, [...via, 'find'], platform);
      invocations.push(
        ...found.map((inner) => (chdir === undefined || inner.chdir !== undefined ? inner : { ...inner, chdir })),
      );
      break;
    }
    if (!plainWrappers.has(program)) break;
    const start = wrappedStart(program, args);
    if (start === -1) break;
    via.push(program);
    const directory = chdirOption(program, args);
    if (directory !== undefined) chdir = chdir === undefined ? directory : 'unknown';
    if (program === 'xargs') {
      isInputFed = true;
      placeholder = xargsPlaceholder(args.slice(0, start)) ?? placeholder;
    }
    rest = args.slice(start);
  }
  return invocations;
}

/** The commands `find … -exec CMD {} ;` (and `-execdir`, `-ok`, `-okdir`) runs, unwrapped, with find's search roots. */
function findExecInvocations(
  args: readonly ShellWord[],
  via: readonly string[],
  platform: NodeJS.Platform,
): Invocation[] {
  const found: Invocation[] = [];
  const searchRoots = findSearchRoots(args);
  for (let index = 0; index < args.length; index += 1) {
    const text = args[index]?.text;
    if (text !== '-exec' && text !== '-execdir' && text !== '-ok' && text !== '-okdir') continue;
    const end = args.findIndex((word, at) => at > index && (word.text === ';' || word.text === '+'));
    const isElsewhere = text === '-execdir' || text === '-okdir';
    for (const inner of unwrapCommand(args.slice(index + 1, end === -1 ? args.length : end), platform)) {
      found.push({
        ...inner,
        via: [...via, ...inner.via],
        isInputFed: true,
        searchRoots,
        placeholder: '{}',
        ...(isElsewhere ? { chdir: 'unknown' as const } : {}),
      });
    }
    index = end === -1 ? args.length : end;
  }
  return found;
}

/** The starting points of a `find` (the operands before its first expression); `.` when none. */
export function findSearchRoots(args: readonly ShellWord[]): readonly ShellWord[] {
  const roots: ShellWord[] = [];
  for (const word of args) {
    if (word.text === '-H' || word.text === '-L' || word.text === '-P') continue;
    if (word.text.startsWith('-') || word.text === '(' || word.text === '!') break;
    roots.push(word);
  }
  return roots.length > 0
    ? roots
    : [{ kind: 'word', text: '.', isQuoted: false, isDynamic: false, hasGlob: false, substitutions: [] }];
}
