import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import type { MemoryMutation, MemoryMutationResult, MemoryOperation } from '../contract/memory-contract';
import { defineTool } from './define-tool';
import { textField } from './text-field';
import { describeMemoryUsage } from './memory-usage-text';

const entryText = (description: string): z.ZodString =>
  textField(description).min(1, { message: 'is empty; give the entry text (to delete an entry, use action "remove")' });

const oldText = (description: string): z.ZodString =>
  textField(description).min(1, { message: 'is empty; give a substring of the one entry to change' });

/** The fields each action needs; a call without them is refused, naming the field. */
const neededFields = {
  add: ['content'],
  replace: ['old_text', 'content'],
  remove: ['old_text'],
  batch: ['operations'],
  read: [],
} as const;

type Needs = Readonly<Partial<Record<'content' | 'old_text' | 'operations', unknown>>>;

/** Adds an issue for every field the action needs but the call left out (path-scoped, so the message names it). */
function requireFields(
  action: keyof typeof neededFields,
  value: Needs,
  prefix: readonly (string | number)[],
  issues: z.core.$ZodRawIssue[],
): void {
  for (const field of neededFields[action]) {
    if (value[field] === undefined) {
      issues.push({
        code: 'custom',
        message: `is required when action is "${action}"`,
        path: [...prefix, field],
        input: value,
      });
    }
  }
}

const operationSchema = lazySchema(() =>
  z
    .strictObject({
      action: z.enum(['add', 'replace', 'remove']).describe('What this step does.'),
      content: entryText('The entry text (add) or the replacement (replace).').optional(),
      old_text: oldText('A substring of the one entry to replace or remove.').optional(),
    })
    .check((context) => {
      requireFields(context.value.action, context.value, [], context.issues);
    }),
);

/** `memory`: the agent's persistent memory (MEMORY.md / USER.md), guarded against lost updates. */
export const memoryTool = defineTool({
  name: 'memory',
  summary:
    'Add, replace or remove entries of your persistent memory (MEMORY.md) or your notes about the user (USER.md).',
  description: [
    '`target: "memory"` is MEMORY.md (facts about the work, at most 2,200 characters); `target: "user"` is USER.md (about the user, at most 1,375). Entries are short, self-contained facts; the limits count every entry and the separators between them.',
    '`add` stores `content` as a new entry; an exact duplicate is not stored twice (the result says so). Over the limit the call is refused with the usage and the current entries: replace or remove entries first.',
    '`replace` and `remove` act on the one entry that contains `old_text`; the whole entry is replaced by `content` or removed. No match, or several different entries matching, is refused with the entries (or 80-character previews) so you can pick a longer substring.',
    '`batch` applies `operations` in order, all or nothing, checked against the final state (for example: remove two entries and add one that needs their room). `read` returns the entries and changes nothing.',
    "If the file was edited outside this tool so that rewriting it would lose text (Hermes Agent's drift rule), replace and remove are refused with `conflict` (add still appends): the file is kept untouched, a copy is saved (`drift_backup` in the error) and `remediation` says what to do. Tell the user; do not try to rebuild the file from memory.",
  ].join('\n'),
  input: lazySchema(() =>
    z
      .strictObject({
        action: z
          .enum(['add', 'replace', 'remove', 'batch', 'read'])
          .describe('What to do: add, replace, remove, batch (several at once, all or nothing) or read.'),
        target: z
          .enum(['memory', 'user'])
          .describe('"memory" for MEMORY.md (your notes), "user" for USER.md (about the user).'),
        content: entryText('add: the new entry. replace: the text that replaces the whole matched entry.').optional(),
        old_text: oldText('replace / remove: a substring that only the entry to change contains.').optional(),
        operations: z
          .array(operationSchema)
          .min(1)
          .max(100)
          .optional()
          .describe('batch: the steps, applied in order, all or nothing.'),
      })
      .check((context) => {
        requireFields(context.value.action, context.value, [], context.issues);
      }),
  ),
  output: lazySchema(() =>
    z.object({
      target: z.enum(['memory', 'user']).describe('The file the call was about.'),
      outcome: z
        .enum(['changed', 'unchanged'])
        .describe('Whether the file changed (a duplicate add or a read changes nothing).'),
      message: z.string().describe('What happened, in one or two sentences.'),
      entries: z.array(z.string()).describe('The entries now in the file.'),
      entry_count: z.int().describe('How many entries the file holds.'),
      usage: z.string().describe('How full the file is: "39% — 862/2,200 chars".'),
      preserved: z
        .array(z.object({ backup: z.string(), entries: z.array(z.string()) }))
        .describe(
          'Backups kept of text written outside this tool that the change took out of the file (usually empty).',
        ),
      checkpoint: z
        .object({ directory: z.string(), checkpointId: z.string(), path: z.string() })
        .optional()
        .describe(
          'The checkpoint of the memory folder that holds the file (path: its name in that folder) as it was before this change; a rewind of the turn puts it back.',
        ),
    }),
  ),
  notRunEffect: 'The memory file was not changed.',
});

/** The validated arguments of a `memory` call. */
export type MemoryToolInput = z.output<typeof memoryTool.input>;

function toOperation(step: {
  action: 'add' | 'replace' | 'remove';
  content?: string | undefined;
  old_text?: string | undefined;
}): MemoryOperation {
  // The schema's checks guarantee the fields each action needs; `?? ''` only satisfies the types.
  switch (step.action) {
    case 'add':
      return { action: 'add', content: step.content ?? '' };
    case 'replace':
      return { action: 'replace', oldText: step.old_text ?? '', content: step.content ?? '' };
    case 'remove':
      return { action: 'remove', oldText: step.old_text ?? '' };
  }
}

/** The mutation a validated `memory` call asks for; undefined for `read`. */
export function memoryToolMutation(input: MemoryToolInput): MemoryMutation | undefined {
  if (input.action === 'read') return undefined;
  if (input.action === 'batch') return { action: 'batch', operations: (input.operations ?? []).map(toOperation) };
  return toOperation({ action: input.action, content: input.content, old_text: input.old_text });
}

/** How error messages name a `memory` call's fields (`content`, `operations.2.old_text`), for the memory service. */
export function memoryToolFieldName(
  input: MemoryToolInput,
): (index: number, property: 'content' | 'oldText') => string {
  const name = (property: 'content' | 'oldText'): string => (property === 'oldText' ? 'old_text' : 'content');
  return input.action === 'batch'
    ? (index, property) => `operations.${index}.${name(property)}`
    : (_index, property) => name(property);
}

/** `39% — 862/2,200 chars`, as Hermes reports usage (kept in a module without schemas, so the CLI loads it cheaply). */
export { describeMemoryUsage };

/** The tool's result for a mutation (or a read, given as an unchanged result). */
export function memoryToolResult(
  result: Pick<MemoryMutationResult, 'target' | 'outcome' | 'message' | 'entries' | 'usage' | 'preserved'>,
  held?: { readonly directory: string; readonly checkpointId: string; readonly path: string },
): z.output<typeof memoryTool.output> {
  return {
    target: result.target,
    outcome: result.outcome,
    message: result.message,
    entries: [...result.entries],
    entry_count: result.entries.length,
    usage: describeMemoryUsage(result.usage),
    preserved: result.preserved.map(({ backup, entries }) => ({ backup, entries: [...entries] })),
    ...(held === undefined
      ? {}
      : { checkpoint: { directory: held.directory, checkpointId: held.checkpointId, path: held.path } }),
  };
}
