import { mutationCommand } from './memory-command-support';

/** `vigil memory replace OLD_SUBSTRING NEW_TEXT`: replaces the one entry containing OLD_SUBSTRING. */
export const memoryReplaceCommand = mutationCommand({
  name: 'replace',
  summary: 'Replace the one entry that contains a substring with new text.',
  usage: 'vigil memory replace OLD_SUBSTRING NEW_TEXT [--dir D] [--target memory|user] [--json]',
  positionals: { min: 2, max: 2, names: 'OLD_SUBSTRING and NEW_TEXT' },
  help: [
    'The whole entry containing OLD_SUBSTRING becomes NEW_TEXT. Refused when no entry contains it (the',
    'entries are printed), when several do (80-character previews are printed: use a longer substring),',
    'over the limit, or when the file drifted.',
  ],
  mutation: ([oldText, content]) => ({ action: 'replace', oldText: oldText ?? '', content: content ?? '' }),
});
