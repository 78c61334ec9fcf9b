import { mutationCommand } from './memory-command-support';

/** `vigil memory add TEXT`: adds an entry (an exact duplicate is a no-op that says so). */
export const memoryAddCommand = mutationCommand({
  name: 'add',
  summary: 'Add an entry to MEMORY.md (or USER.md); refused over the limit or when the file drifted.',
  usage: 'vigil memory add TEXT [--dir D] [--target memory|user] [--json]',
  positionals: { min: 1, max: 1, names: 'TEXT' },
  help: [
    'Adds TEXT as one entry, under the cross-process lock, after re-reading the file. An entry that is',
    'already there is not added twice. Refused (exit 1) when the limit would be exceeded (the current',
    'entries are printed) or when the file was edited into another shape (a copy is saved; adopt it).',
  ],
  mutation: ([text]) => ({ action: 'add', content: text ?? '' }),
});
