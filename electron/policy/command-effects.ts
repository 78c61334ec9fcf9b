import type { Invocation } from './command-unwrap';
import { findSearchRoots } from './command-unwrap';
import type { ShellWord } from './shell';
import type { CommandEffect, EffectKind } from './command-effect';
import { isHarmlessTarget, word } from './redirect-effects';

/** Operands (non-option arguments) of a command; `--` ends options; `takesValue` options skip their value. */
function operands(
  args: readonly ShellWord[],
  takesValue: ReadonlySet<string> = new Set(),
  windowsSwitches = false,
): ShellWord[] {
  const found: ShellWord[] = [];
  let isOptionsDone = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === undefined) break;
    if (!isOptionsDone && arg.text === '--') {
      isOptionsDone = true;
      continue;
    }
    if (!isOptionsDone && arg.text.startsWith('-') && arg.text !== '-' && !arg.isDynamic) {
      if (takesValue.has(arg.text)) index += 1;
      continue;
    }
    if (windowsSwitches && /^\/[A-Za-z?]+(:.*)?$/u.test(arg.text)) continue;
    found.push(arg);
  }
  return found;
}

function hasFlag(args: readonly ShellWord[], short: string, long: readonly string[] = []): boolean {
  return args.some((arg) => {
    if (long.some((name) => arg.text === name || arg.text.startsWith(`${name}=`))) return true;
    return short !== '' && /^-[A-Za-z0-9]+$/u.test(arg.text) && arg.text.slice(1).includes(short);
  });
}

/** One line for an invocation: its program and arguments (at most 200 characters). */
export function describeInvocation(invocation: Pick<Invocation, 'program' | 'args'>): string {
  return [invocation.program, ...invocation.args.map((arg) => arg.text)].join(' ').slice(0, 200);
}

/** The effect of `cp`-like commands: the destination is overwritten when it exists, only created with -n. */
function copyEffect(invocation: Invocation, takesValue: ReadonlySet<string>, windowsSwitches = false): CommandEffect[] {
  const { args } = invocation;
  const kind: EffectKind = hasFlag(args, 'n', ['--no-clobber', '--update=none']) ? 'create' : 'overwrite-if-exists';
  const targetOption = args.findIndex((arg) => arg.text === '-t' || arg.text.startsWith('--target-directory'));
  const option = targetOption === -1 ? undefined : args[targetOption];
  let destination: ShellWord | undefined;
  if (option !== undefined)
    destination = option.text.includes('=') ? word(option.text.split('=').slice(1).join('=')) : args[targetOption + 1];
  else {
    const all = operands(args, takesValue, windowsSwitches);
    destination = all[all.length - 1];
  }
  if (destination === undefined) return [];
  return [
    {
      kind,
      program: invocation.program,
      targets: [destination],
      isInputFed: invocation.isInputFed,
      description: describeInvocation(invocation),
    },
  ];
}

/** Git subcommands that change or discard working-tree files. */
const destructiveGit = new Set([
  'reset',
  'clean',
  'checkout',
  'restore',
  'switch',
  'stash',
  'rm',
  'mv',
  'pull',
  'merge',
  'rebase',
  'cherry-pick',
  'revert',
  'am',
  'apply',
]);
/** Git's global options that take a separate value. */
const gitValueOptions = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

function gitEffect(invocation: Invocation): CommandEffect[] {
  const { args } = invocation;
  let directory: ShellWord = word('.');
  let index = 0;
  while (index < args.length && (args[index]?.text.startsWith('-') ?? false)) {
    const text = args[index]?.text ?? '';
    if (text === '-C' && args[index + 1] !== undefined) directory = args[index + 1] ?? directory;
    if (text.startsWith('--work-tree=')) directory = word(text.slice('--work-tree='.length));
    index += gitValueOptions.has(text) ? 2 : 1;
  }
  const subcommand = args[index]?.text;
  if (subcommand === undefined || !destructiveGit.has(subcommand)) return [];
  const next = args[index + 1]?.text;
  if (subcommand === 'stash' && (next === 'list' || next === 'show')) return [];
  return [
    {
      kind: 'vcs',
      program: `git ${subcommand}`,
      targets: [directory],
      isInputFed: invocation.isInputFed,
      description: describeInvocation(invocation),
    },
  ];
}

function sedLikeEffect(invocation: Invocation): CommandEffect[] {
  const { args, program } = invocation;
  const isInPlace = args.some((arg, at) => {
    const previous = args[at - 1]?.text;
    if (previous === '-e' || previous === '-f') return false;
    return arg.text === '--in-place' || arg.text.startsWith('--in-place=') || /^-[A-Za-z]*i/u.test(arg.text);
  });
  if (!isInPlace) return [];
  const hasScriptOption = args.some(
    (arg) =>
      arg.text === '-e' || arg.text === '-f' || arg.text.startsWith('--expression') || arg.text.startsWith('--file'),
  );
  const all = operands(args, new Set(['-e', '-f', '--expression', '--file', '-l']));
  const targets = hasScriptOption ? all : all.slice(1);
  return [
    {
      kind: 'modify',
      program,
      targets,
      isInputFed: invocation.isInputFed,
      description: describeInvocation(invocation),
    },
  ];
}

function simple(kind: EffectKind, invocation: Invocation, targets: readonly ShellWord[]): CommandEffect[] {
  return [
    {
      kind,
      program: invocation.program,
      targets,
      isInputFed: invocation.isInputFed,
      description: describeInvocation(invocation),
    },
  ];
}

/** `dd of=<file>` overwrites the file. */
function ddEffect(invocation: Invocation): CommandEffect[] {
  const output = invocation.args.find((arg) => arg.text.startsWith('of='));
  if (output === undefined) return [];
  const target = { ...output, text: output.text.slice(3) };
  return isHarmlessTarget(target.text) ? [] : simple('overwrite', invocation, [target]);
}

/** `tee` overwrites (or with `-a` appends to) each file it is given. */
function teeEffect(invocation: Invocation): CommandEffect[] {
  const { args } = invocation;
  const targets = operands(args).filter((arg) => !isHarmlessTarget(arg.text));
  return targets.length === 0
    ? []
    : simple(hasFlag(args, 'a', ['--append']) ? 'append' : 'overwrite', invocation, targets);
}

/** An extracting `tar` overwrites files in its `-C` folder (or the working folder). */
function tarEffect(invocation: Invocation): CommandEffect[] {
  const { args } = invocation;
  const first = args[0]?.text ?? '';
  const isExtract = /^-?[A-Za-z]*x/u.test(first) || hasFlag(args, 'x', ['--extract', '--get']);
  if (!isExtract) return [];
  const at = args.findIndex((arg) => arg.text === '-C' || arg.text.startsWith('--directory'));
  const option = args[at];
  const inline = option?.text.includes('=') === true ? option.text.split('=').slice(1).join('=') : undefined;
  const directory =
    option === undefined ? word('.') : inline !== undefined ? word(inline) : (args[at + 1] ?? word('.'));
  return simple('overwrite', invocation, [directory]);
}

/** An extracting `unzip` overwrites files in its `-d` folder (or the working folder); listing and testing change nothing. */
function unzipEffect(invocation: Invocation): CommandEffect[] {
  const { args } = invocation;
  if (hasFlag(args, 'l') || hasFlag(args, 't') || hasFlag(args, 'v') || hasFlag(args, 'p')) return [];
  const at = args.findIndex((arg) => arg.text === '-d');
  return simple('overwrite', invocation, [at === -1 ? word('.') : (args[at + 1] ?? word('.'))]);
}

/** `rsync` overwrites its destination, and deletes there (or the sources) with a delete option. */
function rsyncEffect(invocation: Invocation): CommandEffect[] {
  const { args } = invocation;
  const all = operands(args, new Set(['-e', '--rsh', '--exclude', '--include', '--filter', '-f']));
  const destination = all[all.length - 1];
  if (destination === undefined || all.length < 2) return [];
  return simple(
    hasFlag(args, '', ['--delete', '--delete-after', '--delete-before', '--delete-during', '--remove-source-files'])
      ? 'delete'
      : 'overwrite',
    invocation,
    [destination],
  );
}

/** `mv` and its Windows kin move their operands (`move` and `ren` take `/` switches). */
function moveEffect(invocation: Invocation): CommandEffect[] {
  const { program, args } = invocation;
  return simple(
    'move',
    invocation,
    operands(args, new Set(['-t', '--target-directory', '-S', '--suffix']), program === 'move' || program === 'ren'),
  );
}

/** The file effects of one program run (after unwrapping), by parsing its arguments. */
export function invocationEffects(invocation: Invocation): CommandEffect[] {
  const { program, args } = invocation;
  switch (program) {
    case 'rm':
    case 'unlink':
    case 'rmdir':
    case 'shred':
    case 'srm':
      return simple('delete', invocation, operands(args, new Set(['-n', '--iterations', '-s', '--size'])));
    case 'del':
    case 'erase':
    case 'rd':
    case 'remove-item':
    case 'Remove-Item':
    case 'ri':
      return simple(
        'delete',
        invocation,
        operands(args, new Set(['-Path', '-LiteralPath', '-Include', '-Exclude', '-Filter']), true),
      );
    case 'truncate':
      return simple('overwrite', invocation, operands(args, new Set(['-s', '--size', '-r', '--reference'])));
    case 'mv':
    case 'move':
    case 'move-item':
    case 'Move-Item':
    case 'ren':
    case 'rename':
      return moveEffect(invocation);
    case 'cp':
    case 'install':
      return copyEffect(
        invocation,
        new Set(['-t', '--target-directory', '-S', '--suffix', '-m', '--mode', '-o', '--owner', '-g', '--group']),
      );
    case 'copy':
    case 'copy-item':
    case 'Copy-Item':
      return copyEffect(invocation, new Set(['-Destination', '-Path']), program === 'copy');
    case 'ln':
      return copyEffect(invocation, new Set(['-t', '--target-directory', '-S', '--suffix']));
    case 'touch':
      return simple('create', invocation, operands(args, new Set(['-d', '--date', '-r', '--reference', '-t'])));
    case 'mkdir':
      return simple('create', invocation, operands(args, new Set(['-m', '--mode'])));
    case 'dd':
      return ddEffect(invocation);
    case 'sed':
    case 'perl':
    case 'ruby':
      return sedLikeEffect(invocation);
    case 'tee':
      return teeEffect(invocation);
    case 'find':
      return hasFlag(args, '', ['-delete']) ? simple('delete', invocation, findSearchRoots(args)) : [];
    case 'git':
      return gitEffect(invocation);
    case 'tar':
      return tarEffect(invocation);
    case 'unzip':
      return unzipEffect(invocation);
    case 'rsync':
      return rsyncEffect(invocation);
    case 'set-content':
    case 'Set-Content':
    case 'sc':
    case 'out-file':
    case 'Out-File':
    case 'clear-content':
    case 'Clear-Content':
    case 'clc':
      return simple('overwrite', invocation, operands(args, new Set(['-Value', '-Encoding', '-InputObject'])));
    default:
      return [];
  }
}
