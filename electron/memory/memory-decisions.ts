import type { AppliedOperation, MemoryMutation } from '../../shared/contract/memory-contract';
import { AppError } from '../../shared/errors';
import { checkAdoptedEntries } from './memory-adoption';
import type { MemoryFileSnapshot } from './memory-file';
import type { ParsedSnapshot } from './memory-file-state';
import { serializeEntries } from './memory-format';
import type { ChangeDecision } from './guarded-change';
import { applyOperations } from './memory-operations';

/** Names the request field of an operation's property in error messages. */
export type FieldNamer = (index: number, property: 'content' | 'oldText') => string;

/** Field names as the contract spells them (`operation.content`, `operation.operations.2.oldText`). */
export function contractFieldNamer(mutation: MemoryMutation): FieldNamer {
  return mutation.action === 'batch'
    ? (index, property) => `operation.operations.${index}.${property}`
    : (_index, property) => `operation.${property}`;
}

const singleMessages: Readonly<Record<AppliedOperation['outcome'], string>> = {
  added: 'Entry added.',
  'already-present': 'Entry already exists (no duplicate added).',
  replaced: 'Entry replaced.',
  removed: 'Entry removed.',
  unchanged: 'The entry already reads that way; nothing changed.',
};

function batchMessage(applied: readonly AppliedOperation[]): string {
  const counts = new Map<string, number>();
  for (const item of applied) counts.set(item.outcome, (counts.get(item.outcome) ?? 0) + 1);
  const parts = [...counts].map(([outcome, count]) => `${count} ${outcome.replace('-', ' ')}`);
  return `Batch of ${applied.length} applied: ${parts.join(', ')}.`;
}

/** The decision of a mutation: its operations applied to the current entries, all or nothing. */
export function decideMutation(mutation: MemoryMutation, fileName: string, limit: number, fieldOf: FieldNamer) {
  const operations = mutation.action === 'batch' ? mutation.operations : [mutation];
  return (current: ParsedSnapshot): ChangeDecision => {
    const outcome = applyOperations(current.version.entries, operations, { fileName, limit, fieldOf });
    const [only] = outcome.applied;
    const message =
      mutation.action !== 'batch' && only !== undefined ? singleMessages[only.outcome] : batchMessage(outcome.applied);
    return { ...outcome, message };
  };
}

/** The decision of an adoption: the confirmed entries, if the file is still the one they were proposed for. */
export function decideAdoption(basis: string | null, entries: readonly string[], fileName: string, limit: number) {
  return (current: ParsedSnapshot, snapshot: MemoryFileSnapshot): ChangeDecision => {
    if (snapshot.sha256 !== basis) {
      throw new AppError(
        'conflict',
        `${fileName} changed after the adoption was proposed; nothing was written. Propose again and confirm the new entries.`,
        {
          basis,
          current: snapshot.sha256,
        },
      );
    }
    const adopted = checkAdoptedEntries(entries, limit, fileName);
    const kept = new Set(adopted);
    return {
      entries: adopted,
      applied: adopted.map((entry) => ({ action: 'add' as const, outcome: 'added' as const, entry })),
      isChanged: !snapshot.exists || serializeEntries(adopted) !== snapshot.text || snapshot.invalidUtf8At !== -1,
      discarded: current.version.entries.filter((entry) => !kept.has(entry)),
      message: `Adopted ${adopted.length} ${adopted.length === 1 ? 'entry' : 'entries'}.`,
    };
  };
}
