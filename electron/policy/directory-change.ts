import { resolveTargets, type CommandPlace, type WorkingDirectory } from './command-targets';
import type { ShellWord } from './shell';

/** Where the shell is: its directory, the `pushd` stack, and whether the last command succeeded. */
export interface ShellState {
  readonly cwd: WorkingDirectory;
  readonly stack: readonly WorkingDirectory[];
  readonly isOk: boolean;
}

/** The builtins that change the shell's own working directory. */
export const directoryBuiltins: ReadonlySet<string> = new Set(['cd', 'pushd', 'popd', 'chdir']);

/** The words of a `cd`-like builtin after `builtin`/`command` prefixes, or undefined when it is something else. */
export function directoryBuiltin(words: readonly ShellWord[]): readonly ShellWord[] | undefined {
  let start = 0;
  while (start < words.length && (words[start]?.text === 'builtin' || words[start]?.text === 'command')) start += 1;
  const name = words[start];
  return name !== undefined && !name.isDynamic && directoryBuiltins.has(name.text) ? words.slice(start) : undefined;
}

/** The one directory a `cd` operand names from `from`, or undefined when it is only known at run time. */
function destination(operand: ShellWord, from: WorkingDirectory, place: CommandPlace): WorkingDirectory {
  if (operand.text === '-' || operand.hasGlob || /^[+-][0-9]+$/u.test(operand.text)) return undefined;
  const found = resolveTargets(operand, [from], place);
  const only = found.length === 1 ? found[0] : undefined;
  return only !== undefined && !only.isGlob ? only.path : undefined;
}

/** The `pushd` stack with `cwd` on top; past 8 entries the bottom ones become one unknown entry. */
function pushed(cwd: WorkingDirectory, stack: readonly WorkingDirectory[]): readonly WorkingDirectory[] {
  const next = [cwd, ...stack];
  return next.length > 8 ? [...next.slice(0, 7), undefined] : next;
}

/**
 * What a `cd`, `pushd`, `popd` or `chdir` does to one state of the shell: on success the new
 * directory (the home folder for a bare `cd`; unknown for `cd -`, `cd $X`, `cd $(…)`, a glob,
 * `pushd +1`); on failure the same directory, with a failed status. Options are skipped.
 */
export function changeDirectory(words: readonly ShellWord[], state: ShellState, place: CommandPlace): ShellState[] {
  const [name, ...args] = words;
  let at = 0;
  while (at < args.length && /^-[LPe@n]+$/u.test(args[at]?.text ?? '')) at += 1;
  const isNoChange = args.slice(0, at).some((arg) => arg.text.includes('n'));
  const operands = args.slice(args[at]?.text === '--' ? at + 1 : at);
  const failed: ShellState = { ...state, isOk: false };
  const operand = operands[0];
  if (operands.length > 1) return [{ cwd: undefined, stack: state.stack, isOk: true }, failed];
  switch (name?.text) {
    case 'popd': {
      if (operand !== undefined) return [{ cwd: undefined, stack: [], isOk: true }, failed];
      const [next, ...rest] = state.stack;
      return state.stack.length === 0
        ? [failed]
        : [{ cwd: isNoChange ? state.cwd : next, stack: rest, isOk: true }, failed];
    }
    case 'pushd': {
      if (isNoChange) return [{ ...state, stack: pushed(undefined, state.stack), isOk: true }, failed];
      if (operand === undefined) {
        const [next, ...rest] = state.stack;
        return state.stack.length === 0 ? [failed] : [{ cwd: next, stack: [state.cwd, ...rest], isOk: true }, failed];
      }
      return [
        { cwd: destination(operand, state.cwd, place), stack: pushed(state.cwd, state.stack), isOk: true },
        failed,
      ];
    }
    default:
      return [
        {
          cwd: operand === undefined ? place.home : destination(operand, state.cwd, place),
          stack: state.stack,
          isOk: true,
        },
        failed,
      ];
  }
}
