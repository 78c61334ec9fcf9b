import type { CommandPlace, WorkingDirectory } from './command-targets';
import { changeDirectory, directoryBuiltin, type ShellState } from './directory-change';
import { resolveTargets } from './command-targets';
import type { ShellList, ShellRedirect, ShellStep, SimpleCommand } from './shell';

/** Where a command's standard input comes from, as far as the line shows. */
export type StandardInput =
  | { readonly kind: 'none' }
  /**
   * A pipeline: `producer` is the previous stage (absent when that is a compound command);
   * `earlier` holds the simple commands of every stage before it, an enclosing pipeline's too.
   */
  | { readonly kind: 'pipe'; readonly producer?: SimpleCommand; readonly earlier: readonly SimpleCommand[] }
  | { readonly kind: 'redirect'; readonly redirect: ShellRedirect };

/** One simple command as the shell would reach it: every directory it may run in, and its input. */
export interface CommandVisit {
  readonly command: SimpleCommand;
  readonly cwds: readonly WorkingDirectory[];
  readonly stdin: StandardInput;
}

/** What a command does to the shell itself, beyond what it does to files. */
export interface VisitOutcome {
  /** Code it runs in this very shell (`eval 'cd /'`), parsed: its directory changes count. */
  readonly inline?: ShellList;
  /** It may change the directory in a way that cannot be followed (`source env.sh`, `eval "$X"`). */
  readonly losesDirectory?: boolean;
}

/** Called once for every simple command the walk reaches (compound redirections as a command without words). */
export type CommandVisitor = (visit: CommandVisit) => VisitOutcome;

interface Walk {
  readonly place: CommandPlace;
  readonly depth: number;
  readonly visit: CommandVisitor;
}

/** Distinct directories followed at once; more collapse into "unknown". */
const maxDirectories = 8;
const stdinOperators = new Set(['<', '<<', '<<-', '<<<', '<>', '<&']);

function dedupe(states: readonly ShellState[]): ShellState[] {
  if (states.length < 2) return [...states];
  const directories = new Set<WorkingDirectory>();
  const found = new Map<string, ShellState>();
  for (const state of states) {
    if (!directories.has(state.cwd) && directories.size >= maxDirectories) {
      found.set(`?|${String(state.isOk)}`, { cwd: undefined, stack: [undefined], isOk: state.isOk });
      continue;
    }
    directories.add(state.cwd);
    const stack = state.stack.length === 0 ? '' : state.stack.map((entry) => entry ?? '\0?').join('\0');
    found.set(`${state.cwd ?? '\0?'}\0${stack}\0${state.isOk ? 1 : 0}`, state);
  }
  return [...found.values()];
}

/** After a command whose exit status is not known: each state, succeeded or failed. */
function eitherStatus(states: readonly ShellState[]): ShellState[] {
  return dedupe(
    states.flatMap((state) => [
      { ...state, isOk: true },
      { ...state, isOk: false },
    ]),
  );
}

function directoriesOf(states: readonly ShellState[]): WorkingDirectory[] {
  return [...new Set(states.map((state) => state.cwd))];
}

/** A command's input: its own last input redirection, else what it inherits (a pipe, its compound's redirection). */
export function inputOf(redirects: readonly ShellRedirect[], inherited: StandardInput): StandardInput {
  const last = redirects
    .filter((redirect) => stdinOperators.has(redirect.op) && (redirect.fd === undefined || redirect.fd === 0))
    .pop();
  return last === undefined ? inherited : { kind: 'redirect', redirect: last };
}

/**
 * The directories a loop body may move to: absolute `cd` targets as they are, anything else
 * (relative, `cd -`, `popd`, `eval`, `source`) unknown — a second pass would start elsewhere.
 */
function loopDestinations(list: ShellList, place: CommandPlace): WorkingDirectory[] {
  const found: WorkingDirectory[] = [];
  for (const step of list.steps) {
    if (step.kind === 'subshell') continue;
    if (step.kind !== 'command') {
      found.push(...loopDestinations(step.body, place));
      continue;
    }
    const builtin = directoryBuiltin(step.command.words);
    const first = step.command.words[0]?.text;
    if (builtin === undefined) {
      if (first === 'eval' || first === 'source' || first === '.') found.push(undefined);
      continue;
    }
    const operand = builtin[1];
    const target =
      operand === undefined || builtin.length > 2 || builtin[0]?.text === 'popd'
        ? undefined
        : resolveTargets(operand, [undefined], place)[0];
    found.push(target?.isGlob === false ? target.path : undefined);
  }
  return found;
}

function runCommand(
  command: SimpleCommand,
  running: readonly ShellState[],
  stdin: StandardInput,
  walk: Walk,
): ShellState[] {
  const input = inputOf(command.redirects, stdin);
  const outcome = walk.visit({ command, cwds: directoriesOf(running), stdin: input });
  const builtin = directoryBuiltin(command.words);
  let after: ShellState[];
  if (builtin !== undefined) after = running.flatMap((state) => changeDirectory(builtin, state, walk.place));
  else if (outcome.inline !== undefined) after = runList(outcome.inline, running, input, walk);
  else after = eitherStatus(running);
  if (outcome.losesDirectory === true) after = [...after, ...after.map((state) => ({ ...state, cwd: undefined }))];
  return dedupe(after);
}

function runStep(step: ShellStep, running: readonly ShellState[], stdin: StandardInput, walk: Walk): ShellState[] {
  for (const expansion of step.expansions) runList(expansion, running, stdin, walk);
  if (step.kind === 'command') return runCommand(step.command, running, stdin, walk);
  if (step.kind === 'function') {
    // The body runs when the function is called, from wherever the shell is then.
    const anywhere = dedupe([...running, ...running.map((state) => ({ ...state, cwd: undefined }))]);
    runList(step.body, anywhere, { kind: 'none' }, walk);
    const mayMove = loopDestinations(step.body, walk.place).length > 0;
    return dedupe((mayMove ? anywhere : running).map((state) => ({ ...state, isOk: true })));
  }
  const input = inputOf(step.redirects, stdin);
  if (step.redirects.length > 0) {
    walk.visit({
      command: { words: [], redirects: step.redirects, pipeline: -1, isBackground: false, depth: walk.depth },
      cwds: directoriesOf(running),
      stdin: input,
    });
  }
  switch (step.kind) {
    case 'subshell':
      runList(step.body, running, input, walk);
      return eitherStatus(running);
    case 'group':
      return runList(step.body, running, input, walk);
    case 'conditional':
      return eitherStatus(runList(step.body, running, input, walk));
    case 'loop': {
      const destinations = loopDestinations(step.body, walk.place);
      const entry = dedupe([...running, ...destinations.flatMap((cwd) => running.map((state) => ({ ...state, cwd })))]);
      return eitherStatus([...running, ...runList(step.body, entry, input, walk)]);
    }
  }
}

function runList(list: ShellList, entry: readonly ShellState[], stdin: StandardInput, walk: Walk): ShellState[] {
  let states = dedupe(entry);
  let listStart = states;
  const steps = list.steps;
  let index = 0;
  while (index < steps.length) {
    const first = steps[index];
    if (first === undefined) break;
    let end = index + 1;
    while (steps[end]?.join === '|') end += 1;
    if (first.join === '&') states = dedupe(listStart.map((state) => ({ ...state, isOk: true })));
    if (first.join === ';' || first.join === '&') listStart = states;
    const isRun = (state: ShellState): boolean =>
      first.join === '&&' ? state.isOk : first.join === '||' ? !state.isOk : true;
    // A step no state reaches is still followed (from every state): analysis errs towards more.
    const reached = states.filter(isRun);
    const running = reached.length > 0 ? reached : states;
    const skipped = reached.length > 0 ? states.filter((state) => !isRun(state)) : [];
    let after: ShellState[];
    if (end - index === 1) after = runStep(first, running, stdin, walk);
    else {
      // Every stage of a pipeline runs in a subshell of its own: its `cd` stays there.
      const earlier = stdin.kind === 'pipe' ? [...stdin.earlier] : [];
      for (let at = index; at < end; at += 1) {
        const previous = steps[at - 1];
        const input: StandardInput =
          at === index
            ? stdin
            : {
                kind: 'pipe',
                ...(previous?.kind === 'command' ? { producer: previous.command } : {}),
                earlier: [...earlier],
              };
        const stage = steps[at];
        if (stage !== undefined) runStep(stage, running, input, walk);
        if (stage?.kind === 'command') earlier.push(stage.command);
      }
      after = eitherStatus(running);
    }
    if (first.isNegated) after = after.map((state) => ({ ...state, isOk: !state.isOk }));
    states = dedupe([...skipped, ...after]);
    index = end;
  }
  return states;
}

/**
 * Walks a parsed command line the way the shell would run it, following its working directory:
 * `cd`/`pushd`/`popd` through `;`, `&&`, `||` (a `cd` that may fail leaves both directories
 * possible), groups, `if`/`case`, loops; subshells, pipeline stages, background jobs and command
 * substitutions keep their changes to themselves. `visit` is called for every simple command with
 * every directory it may run in (undefined: unknown) and where its input comes from.
 */
export function followShell(
  script: ShellList,
  cwds: readonly WorkingDirectory[],
  place: CommandPlace,
  depth: number,
  visit: CommandVisitor,
): void {
  runList(
    script,
    cwds.map((cwd) => ({ cwd, stack: [], isOk: true })),
    { kind: 'none' },
    { place, depth, visit },
  );
}
