import { codeRun } from './code-runners';
import { hiddenByAssignments, hiddenCode } from './hidden-code';
import { machineHardline } from './machine-commands';
import { directoryBuiltin } from './directory-change';
import { describeInvocation, invocationEffects, redirectEffects, type CommandEffect } from './command-effects';
import { followShell, type CommandVisit, type StandardInput, type VisitOutcome } from './command-flow';
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
import { type ParsedShell, parseShell, type ShellList, type ShellWord, type SimpleCommand } from './shell';

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

/** Programs that make links, which a later command of the same line may follow anywhere. */
const linkMakers = new Set(['ln', 'link', 'mklink', 'symlink']);

function makesLink(invocation: Invocation): boolean {
  if (linkMakers.has(invocation.program)) return true;
  if (invocation.program === 'cp')
    return invocation.args.some((arg) => /^-[A-Za-z]*s|^--symbolic-link$/u.test(arg.text));
  return (
    /^new-item$/iu.test(invocation.program) &&
    invocation.args.some((arg) => /^(symboliclink|junction|hardlink)$/iu.test(arg.text))
  );
}

/** Programs that shut the machine down or wipe disks: always refused. */
const hardlinePrograms = new Set([
  'mkfs',
  'mke2fs',
  'mkswap',
  'wipefs',
  'fdisk',
  'sfdisk',
  'cfdisk',
  'parted',
  'gdisk',
  'sgdisk',
  'diskpart',
  'format',
  'shutdown',
  'reboot',
  'halt',
  'poweroff',
  'stop-computer',
  'restart-computer',
  'Stop-Computer',
  'Restart-Computer',
]);
/** Programs whose targets are checked against the critical folders even though they are not destructive. */
const permissionPrograms = new Set(['chmod', 'chown', 'chgrp', 'chattr', 'setfacl', 'icacls', 'takeown']);
const downloaders = new Set([
  'curl',
  'wget',
  'fetch',
  'iwr',
  'irm',
  'invoke-webrequest',
  'Invoke-WebRequest',
  'invoke-restmethod',
  'Invoke-RestMethod',
]);
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

function hardlineOfInvocation(
  invocation: Invocation,
  cwds: readonly WorkingDirectory[],
  place: CommandPlace,
): string[] {
  const { program, args } = invocation;
  const reasons: string[] = machineHardline(invocation);
  if (hardlinePrograms.has(program) || program.startsWith('mkfs.'))
    reasons.push(`"${program}" formats disks or shuts the machine down`);
  if ((program === 'init' || program === 'telinit') && args.some((arg) => arg.text === '0' || arg.text === '6'))
    reasons.push(`"${program} ${args[0]?.text ?? ''}" shuts the machine down`);
  if (
    program === 'systemctl' &&
    args.some((arg) =>
      ['poweroff', 'reboot', 'halt', 'kexec', 'emergency', 'rescue', 'suspend', 'hibernate'].includes(arg.text),
    )
  ) {
    reasons.push('"systemctl" would stop or restart the machine');
  }
  if (args.some((arg) => arg.text === '--no-preserve-root'))
    reasons.push(`"${program} --no-preserve-root" may act on the whole file system`);
  if ((program === 'kill' || program === 'pkill') && args.slice(1).some((arg) => arg.text === '-1') && args.length >= 2)
    reasons.push('"kill … -1" signals every process of the user');
  if (permissionPrograms.has(program)) {
    for (const arg of args) {
      if (arg.text.startsWith('-')) continue;
      if (resolveTargets(arg, cwds, place).some((target) => isCriticalTarget(target, place)))
        reasons.push(`"${program}" on ${arg.text} changes the permissions of a system or home folder`);
    }
  }
  return reasons;
}

function forkBombs(commands: readonly SimpleCommand[]): string[] {
  const reasons: string[] = [];
  for (const command of commands) {
    const name = command.insideFunction;
    if (name === undefined || command.words[0]?.text !== name) continue;
    const isPiped =
      commands.filter((other) => other.pipeline === command.pipeline && other.depth === command.depth).length > 1;
    if (command.isBackground || isPiped) reasons.push(`the function "${name}" starts copies of itself (a fork bomb)`);
  }
  return [...new Set(reasons)];
}

/** The directories an invocation runs in: its command's, or another given by `env -C`, `sudo -D`, `find -execdir`. */
function runDirectories(
  invocation: Invocation,
  cwds: readonly WorkingDirectory[],
  place: CommandPlace,
): WorkingDirectory[] {
  const chdir = invocation.chdir;
  if (chdir === undefined) return [...cwds];
  if (chdir === 'unknown') return [undefined];
  return resolveTargets(chdir, cwds, place).map((target) => (target.isGlob ? undefined : target.path));
}

/** The words of an invocation that may name paths: its operands and the values of `--option=value`. */
function pathWords(invocation: Invocation): ShellWord[] {
  return invocation.args.flatMap((arg) => {
    if (arg.text.startsWith('--') && arg.text.includes('='))
      return [{ ...arg, text: arg.text.slice(arg.text.indexOf('=') + 1) }];
    return arg.text.startsWith('-') ? [] : [arg];
  });
}

/** Whether an earlier stage of the pipeline feeding a command downloads (`curl …`, `sudo wget …`, `iwr …`), wrappers unwrapped. */
function isFedDownload(stdin: StandardInput, platform: NodeJS.Platform): boolean {
  return (
    stdin.kind === 'pipe' &&
    stdin.earlier.some((stage) => unwrapCommand(stage.words, platform).some((run) => downloaders.has(run.program)))
  );
}

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
