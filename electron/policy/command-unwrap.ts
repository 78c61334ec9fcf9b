import type { ShellWord } from './shell';

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

/** Options that take a separate value, per wrapper (so the value is not mistaken for the program). */
const valueOptions: Readonly<Record<string, ReadonlySet<string>>> = {
  sudo: new Set([
    '-u',
    '-g',
    '-h',
    '-p',
    '-C',
    '-r',
    '-t',
    '-U',
    '-D',
    '-R',
    '-T',
    '--user',
    '--group',
    '--prompt',
    '--chdir',
  ]),
  doas: new Set(['-u', '-C']),
  env: new Set(['-u', '-C', '--unset', '--chdir']),
  nice: new Set(['-n', '--adjustment']),
  ionice: new Set(['-c', '-n', '-p', '--class', '--classdata']),
  stdbuf: new Set(['-i', '-o', '-e']),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  exec: new Set(['-a']),
  flock: new Set(['-w', '-E', '--timeout', '--conflict-exit-code']),
  chrt: new Set([]),
  taskset: new Set([]),
  xargs: new Set([
    '-a',
    '-d',
    '-E',
    '-I',
    '-L',
    '-n',
    '-P',
    '-s',
    '--arg-file',
    '--delimiter',
    '--eof',
    '--replace',
    '--max-lines',
    '--max-args',
    '--max-procs',
    '--max-chars',
  ]),
  // `-d`/`--differences` take an optional value, attached only: `watch -d rm x` runs rm.
  watch: new Set(['-n', '-q', '--interval', '--equexit']),
};

/** Programs that run the rest of their arguments as a command. */
const plainWrappers = new Set([
  'sudo',
  'doas',
  'nohup',
  'nice',
  'ionice',
  'stdbuf',
  'time',
  'command',
  'builtin',
  'exec',
  'chronic',
  'unbuffer',
  'busybox',
  'caffeinate',
  'setsid',
  'env',
  'timeout',
  'flock',
  'chrt',
  'taskset',
  'xargs',
]);
/** Wrappers that take one positional argument before the command (`timeout 5 rm x`, `flock f rm x`). */
const wrappersWithOperand = new Set(['timeout', 'flock', 'chrt', 'taskset']);
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

function isOption(word: ShellWord): boolean {
  return word.text.startsWith('-') && word.text !== '-' && !word.isDynamic;
}

/** How a wrapper reads its arguments: where its own options are, and where the command it runs starts (-1: none). */
function readWrapper(
  wrapper: string,
  args: readonly ShellWord[],
): { readonly options: readonly number[]; readonly start: number } {
  const takesValue = valueOptions[wrapper] ?? new Set<string>();
  const options: number[] = [];
  let index = 0;
  let operands = wrappersWithOperand.has(wrapper) ? 1 : 0;
  while (index < args.length) {
    const word = args[index];
    if (word === undefined) break;
    if (word.text === '--') {
      index += 1;
      if (operands === 0) return { options, start: index };
      continue;
    }
    if (wrapper === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/u.test(word.text)) {
      index += 1;
      continue;
    }
    if (isOption(word)) {
      options.push(index);
      const name = word.text.split('=')[0] ?? word.text;
      index += takesValue.has(name) && !word.text.includes('=') ? 2 : 1;
      continue;
    }
    if (operands > 0) {
      operands -= 1;
      index += 1;
      continue;
    }
    return { options, start: index };
  }
  return { options, start: -1 };
}

/** Index of the wrapped command inside `args` of a wrapper (`sudo`, `xargs`, `watch` …), or -1 when there is none. */
export function wrappedStart(wrapper: string, args: readonly ShellWord[]): number {
  return readWrapper(wrapper, args).start;
}

/**
 * Where the code given as an argument starts: after `cmd /c` or `/k`, after `su`/`flock` `-c` or
 * `--command`, at `env -S`'s value (the option word itself for `-Scode`, `--split-string=code`);
 * -1 when the program takes none. It is `args.length` when the option ends the line.
 */
export function codeArgument(program: string, args: readonly ShellWord[]): number {
  const text = (index: number): string => args[index]?.text ?? '';
  switch (program) {
    case 'cmd':
    case 'cmd.exe': {
      const at = args.findIndex((word) => /^\/[ck]$/iu.test(word.text));
      return at === -1 ? -1 : at + 1;
    }
    case 'su': {
      const at = args.findIndex((word) => word.text === '-c' || word.text === '--command');
      return at === -1 ? -1 : at + 1;
    }
    case 'flock': {
      // Only flock's own words count: `flock f rm -c x` runs rm.
      const at = readWrapper(program, args).options.find(
        (index) => text(index) === '-c' || text(index) === '--command',
      );
      return at === undefined ? -1 : at + 1;
    }
    case 'env': {
      const at = readWrapper(program, args).options.find(
        (index) => text(index).startsWith('-S') || text(index).startsWith('--split-string'),
      );
      if (at === undefined) return -1;
      return text(at) === '-S' || text(at) === '--split-string' ? at + 1 : at;
    }
    default:
      return -1;
  }
}

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
