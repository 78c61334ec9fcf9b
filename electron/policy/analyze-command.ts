import { codeRun } from './code-runners';
import { hiddenByAssignments, hiddenCode } from './hidden-code';
import { directoryBuiltin } from './directory-change';
import type { CommandEffect } from './command-effect';
import { describeInvocation, invocationEffects } from './command-effects';
import { redirectEffects } from './redirect-effects';
import { followShell, type CommandVisit, type VisitOutcome } from './command-flow';
import {
  isBlockDevice,
  isCriticalTarget,
  resolveTargets,
  type CommandPlace,
  type ResolvedTarget,
  type WorkingDirectory,
} from './command-targets';
import { unwrapCommand, type Invocation } from './command-unwrap';
import { environmentCode, optionProgram, programFile } from './workspace-code';
import { type ParsedShell, parseShell, type ShellList, type ShellWord } from './shell';
import { forkBombs, hardlineOfInvocation } from './command-hardlines';
import { isFedDownload, makesLink, pathWords, runDirectories } from './invocation-facts';

/** A file effect with its targets resolved in every directory its command may run in. */
export interface ResolvedEffect extends CommandEffect {
  readonly resolved: readonly ResolvedTarget[];
}

/** A program the command runs, and every directory it may run in (undefined: only known at run time). */
export interface CommandRun extends Invocation {
  readonly cwds: readonly WorkingDirectory[];
}

/** What a terminal command would do, found by parsing it (it is never run for this). */
export interface CommandAnalysis {
  /** Every program it runs, wrappers and nested commands included. */
  readonly invocations: readonly CommandRun[];
  /** What it does to files: every effect makes the executor checkpoint first. */
  readonly effects: readonly ResolvedEffect[];
  /** The paths its arguments and redirections name, resolved (to find protected locations). */
  readonly namedPaths: readonly ResolvedTarget[];
  /** Reasons it is always refused (`rm -rf /`, mkfs, a fork bomb …); empty when none. */
  readonly hardline: readonly string[];
  /** Reasons a human must decide (it cannot be parsed, its targets are only known at run time …). */
  readonly concerns: readonly string[];
  /**
   * Why it runs code from files Vigil does not read — a script on its input (`sh < x.sh`), a program
   * named by a path (`./grep`), `PATH`, `LD_PRELOAD` or `BASH_ENV` set on the line: it may change
   * anything, so every writable root is checkpointed before it runs.
   */
  readonly runsFiles: readonly string[];
}

interface Findings {
  readonly invocations: CommandRun[];
  readonly effects: ResolvedEffect[];
  readonly namedPaths: ResolvedTarget[];
  readonly hardline: string[];
  readonly concerns: string[];
  readonly runsFiles: string[];
  /** A link an earlier command of the line makes (`ln -s ~ h`): later paths may lead through it. */
  linkMade?: string;
}

const interpreters = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'python',
  'python3',
  'node',
  'perl',
  'ruby',
  'php',
  'iex',
  'invoke-expression',
  'Invoke-Expression',
  'pwsh',
  'powershell',
]);
/** Effects that lose file content: checked against system folders, and asked about when their targets are unknown. */
export const destructiveKinds: ReadonlySet<CommandEffect['kind']> = new Set([
  'delete',
  'overwrite',
  'modify',
  'move',
  'vcs',
]);

const here: ShellWord = {
  kind: 'word',
  text: '.',
  isQuoted: false,
  isDynamic: false,
  hasGlob: false,
  substitutions: [],
};

function noteParse(parsed: ParsedShell, findings: Findings, isTopLevel: boolean, place: CommandPlace): void {
  findings.hardline.push(...forkBombs(parsed.commands));
  findings.runsFiles.push(...environmentCode(parsed, place.platform));
  findings.concerns.push(...parsed.problems.map((problem) => `the command cannot be parsed safely: ${problem}`));
  if (parsed.functions.length > 0 && isTopLevel)
    findings.concerns.push('the command defines shell functions, whose effects Vigil does not follow');
}

function addEffect(
  effect: CommandEffect,
  cwds: readonly WorkingDirectory[],
  place: CommandPlace,
  findings: Findings,
): void {
  const resolved = effect.targets.flatMap((target) => resolveTargets(target, cwds, place));
  findings.effects.push({ ...effect, resolved });
  findings.namedPaths.push(...resolved);
  for (const target of resolved) {
    const shown = target.path ?? target.text;
    if (isBlockDevice(shown)) findings.hardline.push(`"${effect.description}" writes to the block device ${shown}`);
    else if (destructiveKinds.has(effect.kind) && isCriticalTarget(target, place))
      findings.hardline.push(`"${effect.description}" acts on ${shown}, a system or home folder`);
    else if (target.path === undefined && destructiveKinds.has(effect.kind)) {
      findings.concerns.push(
        `"${effect.description}": Vigil cannot tell which files ${target.text} names until the command runs`,
      );
    }
  }
}

/** Analyses one simple command where the walk reached it; returns what it does to the shell itself. */
function visitCommand(visit: CommandVisit, place: CommandPlace, findings: Findings): VisitOutcome {
  const { command, cwds, stdin } = visit;
  const redirects = redirectEffects(command.redirects);
  for (const effect of redirects) addEffect(effect, cwds, place, findings);
  noteLinkFollowed(visit, redirects.length > 0, place, findings);
  let inline: ShellList | undefined;
  let losesDirectory = false;
  for (const invocation of unwrapCommand(command.words, place.platform)) {
    const runCwds = runDirectories(invocation, cwds, place);
    findings.invocations.push({ ...invocation, cwds: runCwds });
    findings.hardline.push(...hardlineOfInvocation(invocation, runCwds, place));
    if (invocation.programWord.isDynamic)
      findings.concerns.push(`the program "${invocation.programWord.text}" is only known when the command runs`);
    // An unknown directory might be the home folder: look there too for credential stores.
    const lookIn = runCwds.includes(undefined) ? [...runCwds, place.home] : runCwds;
    const isElsewhere = lookIn.some((cwd) => cwd !== place.cwd);
    for (const word of pathWords(invocation))
      if (isElsewhere || /[\\/~.*?[{]|\$HOME|\$\{HOME\}/u.test(word.text))
        findings.namedPaths.push(...resolveTargets(word, lookIn, place));
    for (const effect of invocationEffects(invocation)) {
      const searchRoots = invocation.searchRoots ?? [];
      const literal = effect.targets.filter((target) => !target.text.includes('{}'));
      // Under `find -exec`, the paths it is given lie in the search roots: those are its targets.
      addEffect(
        searchRoots.length > 0 ? { ...effect, targets: [...searchRoots, ...literal], isInputFed: false } : effect,
        runCwds,
        place,
        findings,
      );
      if (effect.isInputFed && searchRoots.length === 0 && destructiveKinds.has(effect.kind)) {
        findings.concerns.push(
          `"${effect.description}" acts on paths it reads from its input (${invocation.via.join(' ')}), which Vigil cannot see`,
        );
      }
    }
    if (interpreters.has(invocation.program) && isFedDownload(stdin, place.platform))
      findings.concerns.push('the command runs code downloaded from the network');
    const code = codeRun(invocation, stdin);
    const hidden = hiddenCode(invocation);
    for (const why of [programFile(invocation, place.platform), optionProgram(invocation), ...code.fromFiles])
      if (why !== undefined) findings.runsFiles.push(why);
    losesDirectory ||= code.losesDirectory;
    for (const why of [...code.opaque, ...hidden.opaque]) {
      findings.concerns.push(why);
      addEffect(
        {
          kind: 'opaque',
          program: invocation.program,
          targets: [here],
          isInputFed: false,
          description: describeInvocation(invocation),
        },
        runCwds,
        place,
        findings,
      );
    }
    for (const source of code.child) analyzeInto(source, runCwds, place, command.depth + 1, findings);
    for (const source of hidden.child) analyzeHiddenChild(source, invocation, runCwds, place, findings, command.depth);
    if (makesLink(invocation)) findings.linkMade ??= describeInvocation(invocation);
    for (const source of code.inline) {
      const parsed = parseShell(source, command.depth + 1);
      noteParse(parsed, findings, false, place);
      inline = parsed.script;
    }
  }
  return { inline, losesDirectory };
}

/**
 * After a command of the line made a link, a later command that changes files or directories may
 * go through it anywhere (`ln -s ~ h && rm -rf h/`): paths are resolved before anything runs, so
 * that command is opaque.
 */
function noteLinkFollowed(visit: CommandVisit, hasRedirects: boolean, place: CommandPlace, findings: Findings): void {
  const link = findings.linkMade;
  if (link === undefined) return;
  const invocations = unwrapCommand(visit.command.words, place.platform);
  const isFollowing =
    hasRedirects ||
    directoryBuiltin(visit.command.words) !== undefined ||
    invocations.some((invocation) => invocationEffects(invocation).length > 0 || makesLink(invocation));
  if (!isFollowing) return;
  findings.concerns.push(
    `a link made earlier in the command ("${link}") may lead anywhere, and Vigil checks paths before the command runs`,
  );
  addEffect(
    { kind: 'opaque', program: 'ln', targets: [here], isInputFed: false, description: link },
    visit.cwds,
    place,
    findings,
  );
}

/** Analyses code a program runs without its name showing it (`git -c alias.x='!…'`); its refusals say where the code came from. */
function analyzeHiddenChild(
  source: string,
  invocation: Invocation,
  cwds: readonly WorkingDirectory[],
  place: CommandPlace,
  findings: Findings,
  depth: number,
): void {
  const before = findings.hardline.length;
  analyzeInto(source, cwds, place, depth + 1, findings);
  const runner = describeInvocation(invocation);
  for (let index = before; index < findings.hardline.length; index += 1)
    findings.hardline[index] = `${findings.hardline[index] ?? ''}, in the shell code that "${runner}" runs`;
}

function analyzeInto(
  source: string,
  cwds: readonly WorkingDirectory[],
  place: CommandPlace,
  depth: number,
  findings: Findings,
): void {
  const parsed = parseShell(source, depth);
  noteParse(parsed, findings, depth === 0, place);
  for (const why of hiddenByAssignments(source)) {
    findings.concerns.push(why);
    addEffect(
      { kind: 'opaque', program: 'sh', targets: [here], isInputFed: false, description: why },
      cwds,
      place,
      findings,
    );
  }
  followShell(parsed.script, cwds, place, depth, (visit) => visitCommand(visit, place, findings));
}

/**
 * Parses a terminal command and says what it would do: the programs it runs (through `sudo`,
 * `xargs`, `find -exec`, `sh -c`, `eval`, here-documents, `$(…)` …) and where, following `cd`;
 * its file effects with their targets resolved; why it must always be refused; and why a human
 * should decide (code it runs that cannot be seen, targets only known at run time …). Pure:
 * nothing is run, the disk is not read.
 */
export function analyzeCommand(source: string, place: CommandPlace): CommandAnalysis {
  const findings: Findings = {
    invocations: [],
    effects: [],
    namedPaths: [],
    hardline: [],
    concerns: [],
    runsFiles: [],
  };
  analyzeInto(source, [place.cwd], place, 0, findings);
  return {
    ...findings,
    hardline: [...new Set(findings.hardline)],
    concerns: [...new Set(findings.concerns)],
    runsFiles: [...new Set(findings.runsFiles)],
  };
}
