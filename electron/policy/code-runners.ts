import type { StandardInput } from './command-flow';
import { shells, type Invocation } from './command-unwrap';
import { codeArgument, wrappedStart } from './command-wrappers';
import { isHarmlessTarget } from './redirect-effects';
import { inputText, type InputText } from './input-text';
import type { ShellWord } from './shell';

/** The code a program runs besides itself, as far as the line shows it. */
export interface CodeRun {
  /** Literal shell code a child shell runs (`sh -c '…'`, `bash <<'EOF'`, `trap '…' EXIT`): analysed like the line. */
  readonly child: readonly string[];
  /** Literal shell code this shell runs itself (`eval '…'`, `. /dev/stdin <<< '…'`): its `cd` counts. */
  readonly inline: readonly string[];
  /** Why it runs code Vigil cannot see: a human decides, and its whole folder is checkpointed. */
  readonly opaque: readonly string[];
  /** It may change the shell's directory in a way that cannot be followed (`source env.sh`). */
  readonly losesDirectory: boolean;
  /** Why it runs code from a file Vigil does not read (`sh < script.sh`, `sudo -s < x`): it may change anything. */
  readonly fromFiles: readonly string[];
}

const nothing: CodeRun = { child: [], inline: [], opaque: [], losesDirectory: false, fromFiles: [] };
const opaque = (why: string, losesDirectory = false): CodeRun => ({ ...nothing, opaque: [why], losesDirectory });

/** How an interpreter takes code on its command line. */
interface InterpreterSyntax {
  /** Letters of a short-option cluster that take code (`-e`, `-c`). */
  readonly codeLetters: string;
  /** Letters that take the rest of the cluster as a value (`-Mstrict`, `-i.bak`). */
  readonly valueLetters: string;
  /** Of those, the ones that take the next word when the cluster ends with them (`-I dir`, `-m pytest`). */
  readonly separateLetters: string;
  /** Long options that take code (`--eval`). */
  readonly codeOptions: readonly string[];
  /** Long options that take a separate value. */
  readonly valueOptions: readonly string[];
}

const interpreterFamilies: readonly (readonly [RegExp, InterpreterSyntax])[] = [
  [
    /^(python|pypy)[0-9.]*$/u,
    { codeLetters: 'c', valueLetters: 'mWX', separateLetters: 'mWX', codeOptions: [], valueOptions: [] },
  ],
  [
    /^(node|nodejs|bun)$/u,
    {
      codeLetters: 'ep',
      valueLetters: 'rC',
      separateLetters: 'rC',
      codeOptions: ['--eval', '--print'],
      valueOptions: ['--require', '--import', '--loader', '--input-type', '--conditions'],
    },
  ],
  [
    /^perl[0-9.]*$/u,
    { codeLetters: 'eE', valueLetters: 'MmIidlxC0F', separateLetters: 'I', codeOptions: [], valueOptions: [] },
  ],
  [
    /^ruby[0-9.]*$/u,
    { codeLetters: 'e', valueLetters: 'rICExFi0KTW', separateLetters: 'rICEF', codeOptions: [], valueOptions: [] },
  ],
  [
    /^php[0-9.]*$/u,
    { codeLetters: 'rBRE', valueLetters: 'cdfzt', separateLetters: 'cdfzt', codeOptions: [], valueOptions: [] },
  ],
  [
    /^(lua|luajit|lua[0-9.]+|osascript|Rscript|R|julia|groovy)$/u,
    {
      codeLetters: 'eE',
      valueLetters: 'l',
      separateLetters: 'l',
      codeOptions: ['--eval', '--print', '--expr'],
      valueOptions: [],
    },
  ],
];
const awks = new Set(['awk', 'gawk', 'mawk', 'nawk']);
const stdinPaths = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0', '-']);

/** Code given as words: literal code, or why it is opaque (expansions, or input spliced in by xargs/find). */
function codeFromWords(words: readonly ShellWord[], runner: string, invocation: Invocation): CodeRun {
  if (words.length === 0) return nothing;
  // Code with run-time parts is still analysed for what it shows (`sh -c "rm -rf / $X"` stays refused).
  const text = words.map((word) => word.text).join(' ');
  if (words.some((word) => word.isDynamic))
    return { ...opaque(`"${runner}" runs code that is only known when the command runs`), child: [text] };
  if (invocation.placeholder !== undefined && invocation.placeholder !== '' && text.includes(invocation.placeholder)) {
    return {
      ...opaque(`"${runner}" runs code that ${invocation.via.join(' ')} fills in from its input`),
      child: [text],
    };
  }
  return { ...nothing, child: [text] };
}

/** Code a program reads on its input: shells' literal input is analysed, anything else is opaque. */
function codeFromInput(input: InputText, runner: string, canParse: boolean): CodeRun {
  switch (input.kind) {
    case 'none':
      return nothing;
    case 'file':
      return isHarmlessTarget(input.path)
        ? nothing
        : { ...nothing, fromFiles: [`"${runner}" runs the code in ${input.path}, given on its input`] };
    case 'literal':
      return canParse
        ? { ...nothing, child: [input.text] }
        : opaque(`"${runner}" runs code from its input, which Vigil cannot analyse`);
    case 'hidden': {
      const run = opaque(`"${runner}" runs code from its input, and ${input.why}`);
      return canParse && input.shown !== undefined ? { ...run, child: [input.shown] } : run;
    }
  }
}

function shellCode(invocation: Invocation, input: InputText): CodeRun {
  const { program, args } = invocation;
  if (program === 'powershell' || program === 'pwsh') {
    if (args.some((arg) => /^-(e|ec|enc|encodedcommand)$/iu.test(arg.text)))
      return opaque(`"${program}" runs an encoded command`);
    const at = args.findIndex((arg) => /^-(c|command)$/iu.test(arg.text));
    return at === -1 ? nothing : codeFromWords(args.slice(at + 1), program, invocation);
  }
  let index = 0;
  let isCommandString = false;
  let readsInput = false;
  while (index < args.length) {
    const text = args[index]?.text ?? '';
    if (text === '--' || text === '-') {
      index += 1;
      break;
    }
    if (/^[-+][oO]$/u.test(text) || text === '--rcfile' || text === '--init-file') index += 2;
    else if (/^[-+][A-Za-z]+$/u.test(text) || text.startsWith('--')) {
      if (/^-[A-Za-z]*c/u.test(text)) isCommandString = true;
      if (/^-[A-Za-z]*s/u.test(text)) readsInput = true;
      index += 1;
    } else break;
  }
  const operand = args[index];
  // `bash <(curl …)`, `sh "$SCRIPT"`: the script is a file only known at run time (a process substitution is code from a program).
  if (!isCommandString && operand?.isDynamic === true)
    return opaque(`"${program} ${operand.text}" runs a script that is only known when the command runs`);
  if (isCommandString) {
    if (operand === undefined)
      return invocation.isInputFed
        ? opaque(`"${program} -c" runs code that ${invocation.via.join(' ')} gives it`)
        : nothing;
    return codeFromWords([operand], `${program} -c`, invocation);
  }
  if (operand !== undefined && !readsInput) return nothing;
  return codeFromInput(input, program, true);
}

function interpreterCode(invocation: Invocation, syntax: InterpreterSyntax, input: InputText): CodeRun {
  const { program, args } = invocation;
  for (let index = 0; index < args.length; index += 1) {
    const text = args[index]?.text ?? '';
    if (text === '-') break;
    if (!text.startsWith('-'))
      return args[index]?.isDynamic === true
        ? opaque(`"${program} ${text}" runs a script that is only known when the command runs`)
        : nothing;
    if (text.startsWith('--')) {
      const name = text.split('=')[0] ?? text;
      if (syntax.codeOptions.includes(name)) return opaque(`"${program} ${name}" runs code that Vigil cannot analyse`);
      if (syntax.valueOptions.includes(name) && !text.includes('=')) index += 1;
      continue;
    }
    for (let at = 1; at < text.length; at += 1) {
      const letter = text[at] ?? '';
      if (syntax.codeLetters.includes(letter))
        return opaque(`"${program} -${letter}" runs code that Vigil cannot analyse`);
      if (syntax.valueLetters.includes(letter)) {
        if (at === text.length - 1 && syntax.separateLetters.includes(letter)) index += 1;
        if (letter === 'm' && program.startsWith('py')) return nothing;
        break;
      }
    }
  }
  return codeFromInput(input, program, false);
}

/** Whether an awk program runs commands (`system()`, `| getline`, `print | "sh"`) or writes files (`print > f`). */
function awkCode(invocation: Invocation): CodeRun {
  const { program, args } = invocation;
  let index = 0;
  while (index < args.length) {
    const text = args[index]?.text ?? '';
    if (text === '-f' || text.startsWith('--file')) return nothing;
    if (text === '--') {
      index += 1;
      break;
    }
    if (!text.startsWith('-') || text === '-') break;
    index += text === '-F' || text === '-v' || text === '--assign' || text === '--field-separator' ? 2 : 1;
  }
  const source = args[index];
  if (source === undefined) return nothing;
  if (source.isDynamic) return opaque(`"${program}" runs a program that is only known when the command runs`);
  if (/\bsystem\s*\(|(^|[^|])\|(?!\|)|\bprintf?\b[^;{}\n]*>/u.test(source.text))
    return opaque(`"${program}" runs commands or writes files from its program, which Vigil cannot follow`);
  return nothing;
}

function sourceCode(invocation: Invocation, input: InputText): CodeRun {
  const operand = invocation.args.find((arg) => arg.text !== '--');
  if (operand === undefined) return nothing;
  if (operand.isDynamic)
    return opaque(`"${invocation.program} ${operand.text}" runs code that is only known when the command runs`, true);
  if (!stdinPaths.has(operand.text)) return { ...nothing, losesDirectory: true };
  if (input.kind === 'literal') return { ...nothing, inline: [input.text] };
  if (input.kind === 'file') return { ...codeFromInput(input, invocation.program, true), losesDirectory: true };
  if (input.kind !== 'hidden') return nothing;
  return {
    ...opaque(`"${invocation.program} ${operand.text}" runs code from its input, and ${input.why}`, true),
    inline: input.shown === undefined ? [] : [input.shown],
  };
}

/**
 * The code an invocation runs besides itself: a shell's `-c` string or literal input, `eval` and
 * `source` of literal code, `trap` actions, `watch`/`su -c`/`cmd /c`/`env -S`/`flock -c` commands
 * — or, when that code cannot be seen (interpreters' `-c`/`-e` code, a shell fed by a pipe from a
 * program, expansions, `awk` calling `system()`), why it is opaque.
 */
export function codeRun(invocation: Invocation, stdin: StandardInput): CodeRun {
  const { program, args } = invocation;
  const input = invocation.isInputFed ? ({ kind: 'none' } as const) : inputText(stdin);
  if (shells.has(program)) return shellCode(invocation, input);
  if (awks.has(program)) return awkCode(invocation);
  const family = interpreterFamilies.find(([pattern]) => pattern.test(program));
  if (family !== undefined) return interpreterCode(invocation, family[1], input);
  switch (program) {
    case 'eval': {
      const run = codeFromWords(args, 'eval', invocation);
      return { ...run, child: [], inline: run.child, losesDirectory: run.opaque.length > 0 };
    }
    case 'source':
    case '.':
      return sourceCode(invocation, input);
    case 'trap': {
      const action = args.find((arg) => arg.text !== '--');
      if (
        action === undefined ||
        args.length < 2 ||
        /^-[lpP]$/u.test(action.text) ||
        action.text === '-' ||
        action.text === ''
      )
        return nothing;
      return codeFromWords([action], 'trap', invocation);
    }
    case 'cmd':
    case 'cmd.exe': {
      const at = codeArgument(program, args);
      return at === -1 ? nothing : codeFromWords(args.slice(at), 'cmd', invocation);
    }
    case 'sudo':
    case 'doas':
      // `sudo -s` / `sudo -i` start a shell, which reads its commands from the input.
      return args.some((word) => /^-[A-Za-z]*[si]/u.test(word.text) && !word.text.startsWith('--'))
        ? codeFromInput(input, program, true)
        : nothing;
    case 'su':
    case 'flock': {
      const at = codeArgument(program, args);
      const code = at === -1 ? undefined : args[at];
      if (code === undefined) return program === 'su' ? codeFromInput(input, program, true) : nothing;
      return codeFromWords([code], program, invocation);
    }
    case 'watch': {
      const at = wrappedStart('watch', args);
      return at === -1 ? nothing : codeFromWords(args.slice(at), 'watch', invocation);
    }
    case 'env': {
      const at = codeArgument(program, args);
      const code = at === -1 ? undefined : args[at];
      if (code === undefined) return nothing;
      // The word after a bare `-S` is the code; otherwise the option holds it (`-Scode`, `--split-string=code`).
      const isValue = /^(-S|--split-string)$/u.test(args[at - 1]?.text ?? '');
      const inline = code.text.startsWith('--') ? code.text.split('=').slice(1).join('=') : code.text.slice(2);
      return codeFromWords([isValue ? code : { ...code, text: inline }], 'env -S', invocation);
    }
    default:
      return nothing;
  }
}
