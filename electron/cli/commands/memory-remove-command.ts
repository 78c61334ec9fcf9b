import { mutationCommand } from './memory-command-support';

/** `vigil memory remove OLD_SUBSTRING`: removes the one entry containing OLD_SUBSTRING. */
export const memoryRemoveCommand = mutationCommand({
  name: 'remove',
  summary: 'Remove the one entry that contains a substring.',
  usage: 'vigil memory remove OLD_SUBSTRING [--dir D] [--target memory|user] [--json]',
  positionals: { min: 1, max: 1, names: 'OLD_SUBSTRING' },
  help: [
    'Removes the whole entry containing OLD_SUBSTRING. Refused when none or several entries contain it,',
    'or when the file drifted. Text that was written outside Vigil is kept in a backup when removed.',
  ],
  mutation: ([oldText]) => ({ action: 'remove', oldText: oldText ?? '' }),
});
