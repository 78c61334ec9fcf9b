import type { ShellWord } from './shell-lexer';

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
}

/** What unwrapping one simple command found. */
export interface Unwrapped {
  readonly invocations: readonly Invocation[];
  /** Shell source run by `sh -c`, `eval`, `env -S`, `watch`, `su -c`, `cmd /c`: parse it too. */
  readonly nestedSources: readonly string[];
}

/** A program's base name as the policy compares it: `/usr/bin/rm` → `rm`, `RM.EXE` → `rm` on Windows. */
export function programName(text: string, platform: NodeJS.Platform = process.platform): string {
  const base = text.split(/[\\/]/u).pop() ?? text;
  return platform === 'win32' ? base.toLowerCase().replace(/\.(exe|cmd|bat|com)$/u, '') : base;
}

/** Options that take a separate value, per wrapper (so the value is not mistaken for the program). */
const valueOptions: Readonly<Record<string, ReadonlySet<string>>> = {
  sudo: new Set(['-u', '-g', '-h', '-p', '-C', '-r', '-t', '-U', '-D', '-R', '-T', '--user', '--group', '--prompt', '--chdir']),
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
  xargs: new Set(['-a', '-d', '-E', '-I', '-L', '-n', '-P', '-s', '--arg-file', '--delimiter', '--eof', '--replace', '--max-lines', '--max-args', '--max-procs', '--max-chars']),
  watch: new Set(['-n', '-d', '--interval', '--differences']),
};

/** Programs that run the rest of their arguments as a command. */
const plainWrappers = new Set(['sudo', 'doas', 'nohup', 'nice', 'ionice', 'stdbuf', 'time', 'command', 'builtin', 'exec', 'chronic', 'unbuffer', 'busybox', 'caffeinate', 'setsid', 'env', 'timeout', 'flock', 'chrt', 'taskset', 'xargs']);
/** Wrappers that take one positional argument before the command (`timeout 5 rm x`, `flock f rm x`). */
const wrappersWithOperand = new Set(['timeout', 'flock', 'chrt', 'taskset']);
/** Shells whose `-c STRING` runs STRING. */
const shells = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'fish', 'busybox-sh', 'powershell', 'pwsh']);

function isOption(word: ShellWord): boolean {
  return word.text.startsWith('-') && word.text !== '-' && !word.isDynamic;
}

/** Index of the wrapped command inside `args` of a wrapper, or -1 when there is none. */
function wrappedStart(wrapper: string, args: readonly ShellWord[]): number {
  const takesValue = valueOptions[wrapper] ?? new Set<string>();
  let index = 0;
  let operands = wrappersWithOperand.has(wrapper) ? 1 : 0;
  while (index < args.length) {
    const word = args[index];
    if (word === undefined) break;
    if (word.text === '--') {
      index += 1;
      if (operands === 0) return index;
      continue;
    }
    if (wrapper === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/u.test(word.text)) {
      index += 1;
      continue;
    }
    if (isOption(word)) {
      const name = word.text.split('=')[0] ?? word.text;
      index += takesValue.has(name) && !word.text.includes('=') ? 2 : 1;
      continue;
    }
    if (operands > 0) {
      operands -= 1;
      index += 1;
      continue;
    }
    return index;
  }
  return -1;
}

/** The script of `sh -c SCRIPT` (also `-ec`, `-lc`, PowerShell's `-Command`), when given. */
function shellScript(args: readonly ShellWord[]): ShellWord | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index];
    if (word === undefined || !word.text.startsWith('-')) return undefined;
    if (/^-[A-Za-z]*c[A-Za-z]*$/u.test(word.text) || /^-(command|Command|c)$/u.test(word.text)) return args[index + 1];
  }
  return undefined;
}

function joined(words: readonly ShellWord[]): string {
  return words.map((word) => word.text).join(' ');
}

/**
 * Finds every program a simple command runs: the command itself, what wrappers (`sudo`, `env`,
 * `nice`, `timeout`, `xargs` …) run, what `find -exec` runs, and the shell source that `sh -c`,
 * `eval`, `env -S`, `watch`, `su -c` and `cmd /c` run (returned for parsing).
 */
export function unwrapCommand(words: readonly ShellWord[], platform: NodeJS.Platform = process.platform): Unwrapped {
  const invocations: Invocation[] = [];
  const nestedSources: string[] = [];
  let rest = words;
  const via: string[] = [];
  let isInputFed = false;
  for (let guard = 0; guard < 16 && rest.length > 0; guard += 1) {
    const [programWord, ...args] = rest;
    if (programWord === undefined) break;
    const program = programName(programWord.text, platform);
    invocations.push({ program, programWord, args, via: [...via], isInputFed });
    if (shells.has(program)) {
      const script = shellScript(args);
      if (script !== undefined) nestedSources.push(script.text);
      break;
    }
    if (program === 'eval') {
      nestedSources.push(joined(args));
      break;
    }
    if ((program === 'cmd' || program === 'cmd.exe') && args.some((word) => /^\/[ck]$/iu.test(word.text))) {
      const at = args.findIndex((word) => /^\/[ck]$/iu.test(word.text));
      nestedSources.push(joined(args.slice(at + 1)));
      break;
    }
    if (program === 'su') {
      const at = args.findIndex((word) => word.text === '-c' || word.text === '--command');
      if (at !== -1 && args[at + 1] !== undefined) nestedSources.push(args[at + 1]?.text ?? '');
      break;
    }
    if (program === 'watch') {
      const start = wrappedStart('watch', args);
      if (start !== -1) nestedSources.push(joined(args.slice(start)));
      break;
    }
    if (program === 'env') {
      const split = args.findIndex((word) => word.text === '-S' || word.text === '--split-string' || word.text.startsWith('--split-string='));
      if (split !== -1) {
        const option = args[split];
        const value = option?.text.includes('=') === true ? option.text.split('=').slice(1).join('=') : args[split + 1]?.text;
        if (value !== undefined) nestedSources.push(value);
        break;
      }
    }
    if (program === 'command' && args.some((word) => word.text === '-v' || word.text === '-V')) break;
    if (program === 'find') {
      invocations.push(...findExecInvocations(args, [...via, 'find'], platform));
      break;
    }
    if (!plainWrappers.has(program)) break;
    const start = wrappedStart(program, args);
    if (start === -1) break;
    via.push(program);
    if (program === 'xargs') isInputFed = true;
    rest = args.slice(start);
  }
  return { invocations, nestedSources };
}

/** The commands `find … -exec CMD {} ;` (and `-execdir`, `-ok`, `-okdir`) runs, with find's search roots. */
function findExecInvocations(args: readonly ShellWord[], via: readonly string[], platform: NodeJS.Platform): Invocation[] {
  const found: Invocation[] = [];
  const searchRoots = findSearchRoots(args);
  for (let index = 0; index < args.length; index += 1) {
    const text = args[index]?.text;
    if (text !== '-exec' && text !== '-execdir' && text !== '-ok' && text !== '-okdir') continue;
    const end = args.findIndex((word, at) => at > index && (word.text === ';' || word.text === '+'));
    const inner = args.slice(index + 1, end === -1 ? args.length : end);
    const [programWord, ...innerArgs] = inner;
    if (programWord !== undefined) {
      found.push({ program: programName(programWord.text, platform), programWord, args: innerArgs, via, isInputFed: true, searchRoots });
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
  return roots.length > 0 ? roots : [{ kind: 'word', text: '.', isQuoted: false, isDynamic: false, hasGlob: false, substitutions: [] }];
}
