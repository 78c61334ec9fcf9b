import { machineHardline } from './machine-commands';
import { isCriticalTarget, resolveTargets, type CommandPlace, type WorkingDirectory } from './command-targets';
import type { Invocation } from './command-unwrap';
import type { SimpleCommand } from './shell';

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

/** Why an invocation is always refused (it formats disks, stops the machine, opens up system folders); empty when it is not. */
export function hardlineOfInvocation(
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

/** The functions of a parsed line that start copies of themselves in the background or a pipe (fork bombs). */
export function forkBombs(commands: readonly SimpleCommand[]): string[] {
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
