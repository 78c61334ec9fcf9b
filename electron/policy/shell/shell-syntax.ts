import type { RedirectOperator, ShellWord } from './shell-tokens';

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

/**
 * How a step joins the one before it: `;` (and newlines, and the first step) always runs it, `&&`
 * and `||` run it on success or failure, `|` makes it the next stage of a pipeline, `&` says the
 * steps before it ran in the background.
 */
export type StepJoin = ';' | '&&' | '||' | '|' | '&';

/**
 * Compound commands: `subshell` `( … )` keeps directory changes inside; `group` `{ …; }` shares
 * the shell and its exit status; `conditional` is `if`/`case` (any exit status); `loop` is
 * `while`/`until`/`for`/`select` (its body may run many times).
 */
export type CompoundKind = 'subshell' | 'group' | 'conditional' | 'loop';

interface StepBase {
  readonly join: StepJoin;
  /** Prefixed by `!`: its exit status is inverted. */
  readonly isNegated: boolean;
  /** The command substitutions in its words and redirections, each run in a subshell before it. */
  readonly expansions: readonly ShellList[];
}

/** One step of a command list, in the order the shell would reach it. */
export type ShellStep =
  | (StepBase & { readonly kind: 'command'; readonly command: SimpleCommand })
  | (StepBase & { readonly kind: CompoundKind; readonly body: ShellList; readonly redirects: readonly ShellRedirect[] })
  | (StepBase & { readonly kind: 'function'; readonly name: string; readonly body: ShellList });

/** A command list: steps joined by `;`, `&&`, `||`, `|`, `&` and newlines. */
export interface ShellList {
  readonly steps: readonly ShellStep[];
}

/** A parsed command line: its structure, every simple command in it, and what could not be parsed. */
export interface ParsedShell {
  readonly script: ShellList;
  /** Every simple command, nested ones included (a command's substitutions before it). */
  readonly commands: readonly SimpleCommand[];
  /** Names of the shell functions the line defines. */
  readonly functions: readonly string[];
  /** Every `NAME=value` assignment written before a program or alone (`PATH=. ls`, `X=1;`), nested ones included. */
  readonly assignments: readonly ShellWord[];
  readonly problems: readonly string[];
}
