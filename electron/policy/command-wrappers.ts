import type { ShellWord } from './shell';

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
export const plainWrappers = new Set([
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
