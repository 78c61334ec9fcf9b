import { invocationEffects, redirectEffects, type CommandEffect } from './command-effects';
import { isBlockDevice, isCriticalTarget, resolveTarget, type CommandPlace, type ResolvedTarget } from './command-targets';
import { unwrapCommand, type Invocation } from './command-unwrap';
import { maxShellDepth, parseShell, type SimpleCommand } from './shell-parser';

export type { CommandPlace } from './command-targets';

/** A file effect with its targets resolved against the command's working directory. */
export interface ResolvedEffect extends CommandEffect {
  readonly resolved: readonly ResolvedTarget[];
  /** For `overwrite-if-exists` into a folder: the base names that would land in it. */
  readonly sourceNames: readonly string[];
}

/** What a terminal command would do, found by parsing it (it is never run for this). */
export interface CommandAnalysis {
  /** Every program it runs, wrappers and nested commands included. */
  readonly invocations: readonly Invocation[];
  /** What it does to files; the destructive ones make the executor checkpoint first. */
  readonly effects: readonly ResolvedEffect[];
  /** Reasons it is always refused (`rm -rf /`, mkfs, a fork bomb …); empty when none. */
  readonly hardline: readonly string[];
  /** Reasons a human must decide (it cannot be parsed, its targets are only known at run time …). */
  readonly concerns: readonly string[];
}

/** Programs that shut the machine down or wipe disks: always refused. */
const hardlinePrograms = new Set(['mkfs', 'mke2fs', 'mkswap', 'wipefs', 'fdisk', 'sfdisk', 'cfdisk', 'parted', 'gdisk', 'sgdisk', 'diskpart', 'format', 'shutdown', 'reboot', 'halt', 'poweroff', 'stop-computer', 'restart-computer', 'Stop-Computer', 'Restart-Computer']);
/** Programs whose targets are checked against the critical folders even though they are not destructive. */
const permissionPrograms = new Set(['chmod', 'chown', 'chgrp', 'chattr', 'setfacl', 'icacls', 'takeown']);
const downloaders = new Set(['curl', 'wget', 'fetch', 'iwr', 'irm', 'invoke-webrequest', 'Invoke-WebRequest', 'invoke-restmethod', 'Invoke-RestMethod']);
const interpreters = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'python', 'python3', 'node', 'perl', 'ruby', 'php', 'iex', 'invoke-expression', 'Invoke-Expression', 'pwsh', 'powershell']);
/** Effects that lose file content: the executor checkpoints before them. */
export const destructiveKinds: ReadonlySet<CommandEffect['kind']> = new Set(['delete', 'overwrite', 'modify', 'move', 'vcs']);

function hardlineOfInvocation(invocation: Invocation, place: CommandPlace): string[] {
  const { program, args } = invocation;
  const reasons: string[] = [];
  if (hardlinePrograms.has(program) || program.startsWith('mkfs.')) reasons.push(`"${program}" formats disks or shuts the machine down`);
  if ((program === 'init' || program === 'telinit') && args.some((arg) => arg.text === '0' || arg.text === '6')) reasons.push(`"${program} ${args[0]?.text ?? ''}" shuts the machine down`);
  if (program === 'systemctl' && args.some((arg) => ['poweroff', 'reboot', 'halt', 'kexec', 'emergency', 'rescue', 'suspend', 'hibernate'].includes(arg.text))) {
    reasons.push('"systemctl" would stop or restart the machine');
  }
  if (args.some((arg) => arg.text === '--no-preserve-root')) reasons.push(`"${program} --no-preserve-root" may act on the whole file system`);
  if ((program === 'kill' || program === 'pkill') && args.slice(1).some((arg) => arg.text === '-1') && args.length >= 2) reasons.push('"kill … -1" signals every process of the user');
  if (permissionPrograms.has(program)) {
    for (const arg of args) {
      if (arg.text.startsWith('-')) continue;
      if (isCriticalTarget(resolveTarget(arg, place), place)) reasons.push(`"${program}" on ${arg.text} changes the permissions of a system or home folder`);
    }
  }
  return reasons;
}

function forkBombs(commands: readonly SimpleCommand[]): string[] {
  const reasons: string[] = [];
  for (const command of commands) {
    const name = command.insideFunction;
    if (name === undefined || command.words[0]?.text !== name) continue;
    const isPiped = commands.filter((other) => other.pipeline === command.pipeline && other.depth === command.depth).length > 1;
    if (command.isBackground || isPiped) reasons.push(`the function "${name}" starts copies of itself (a fork bomb)`);
  }
  return [...new Set(reasons)];
}


/**
 * Parses a terminal command and says what it would do: the programs it runs (through `sudo`,
 * `xargs`, `find -exec`, `sh -c`, `$(…)` …), its file effects with resolved targets, why it must
 * always be refused, and why a human should decide. Pure: nothing is run, the disk is not read.
 */
export function analyzeCommand(source: string, place: CommandPlace, depth = 0): CommandAnalysis {
  const parsed = parseShell(source, depth);
  const invocations: Invocation[] = [];
  const effects: ResolvedEffect[] = [];
  const hardline: string[] = [...forkBombs(parsed.commands)];
  const concerns: string[] = parsed.problems.map((problem) => `the command cannot be parsed safely: ${problem}`);
  if (parsed.functions.length > 0 && depth === 0) concerns.push('the command defines shell functions, whose effects Vigil does not follow');
  const pipelines = new Map<string, string[]>();

  for (const command of parsed.commands) {
    const unwrapped = unwrapCommand(command.words, place.platform);
    for (const nested of unwrapped.nestedSources) {
      if (depth + command.depth + 1 > maxShellDepth) {
        concerns.push(`commands are nested more than ${maxShellDepth} levels deep`);
        continue;
      }
      const inner = analyzeCommand(nested, place, depth + command.depth + 1);
      invocations.push(...inner.invocations);
      effects.push(...inner.effects);
      hardline.push(...inner.hardline);
      concerns.push(...inner.concerns);
    }
    const found: CommandEffect[] = redirectEffects(command.redirects);
    for (const invocation of unwrapped.invocations) {
      invocations.push(invocation);
      hardline.push(...hardlineOfInvocation(invocation, place));
      if (invocation.programWord.isDynamic) concerns.push(`the program "${invocation.programWord.text}" is only known when the command runs`);
      for (const effect of invocationEffects(invocation)) {
        const searchRoots = invocation.searchRoots ?? [];
        const literal = effect.targets.filter((target) => !target.text.includes('{}'));
        found.push(searchRoots.length > 0 ? { ...effect, targets: [...searchRoots, ...literal] } : effect);
        if (effect.isInputFed && searchRoots.length === 0 && destructiveKinds.has(effect.kind)) {
          concerns.push(`"${effect.description}" acts on paths it reads from its input (${invocation.via.join(' ')}), which Vigil cannot see`);
        }
      }
      const key = `${depth}:${command.depth}:${command.pipeline}`;
      pipelines.set(key, [...(pipelines.get(key) ?? []), invocation.program]);
    }
    for (const effect of found) {
      const resolved = effect.targets.map((target) => resolveTarget(target, place));
      effects.push({ ...effect, resolved, sourceNames: (effect.sources ?? []).map((source) => source.text.split(/[\\/]/u).filter(Boolean).pop() ?? source.text) });
      for (const target of resolved) {
        if (isBlockDevice(target.text)) hardline.push(`"${effect.description}" writes to the block device ${target.text}`);
        else if (effect.kind !== 'append' && effect.kind !== 'overwrite-if-exists' && isCriticalTarget(target, place)) {
          hardline.push(`"${effect.description}" acts on ${target.text}, a system or home folder`);
        } else if (target.path === undefined && destructiveKinds.has(effect.kind)) {
          concerns.push(`"${effect.description}": Vigil cannot tell which files ${target.text} names until the command runs`);
        }
      }
    }
  }
  for (const programs of pipelines.values()) {
    const download = programs.findIndex((program) => downloaders.has(program));
    if (download !== -1 && programs.slice(download + 1).some((program) => interpreters.has(program))) {
      concerns.push('the command runs code downloaded from the network');
    }
  }
  return { invocations, effects, hardline: [...new Set(hardline)], concerns: [...new Set(concerns)] };
}
