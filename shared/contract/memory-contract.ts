import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { defineCalls, defineEvents } from './define';
import type {
  memoryUsageSchema,
  driftKindSchema,
  driftReportSchema,
  memoryOperationSchema,
  appliedOperationSchema,
  memoryCheckpointSchema,
  entryDiffSchema,
  appendedTextSchema,
  memoryVersionSchema,
  preservedBackupSchema,
  adoptionStrategySchema,
  adoptionProposalSchema,
} from './memory-schemas';
import {
  maxOperationText,
  memoryTargetSchema,
  memoryMutationSchema,
  memoryDirectorySchema,
  memoryChangeSchema,
  memoryFileViewSchema,
  memoryMutationResultSchema,
  adoptionPlanSchema,
} from './memory-schemas';

/**
 * The memory store in the contract: the agents' MEMORY.md / USER.md of each memory directory,
 * their entries, usage and drift, guarded mutations, adoption of drifted files, and live changes.
 * These schemas also type the core's memory service (electron/memory/).
 */

export {
  memoryTargetSchema,
  memoryUsageSchema,
  driftKindSchema,
  driftReportSchema,
  memoryOperationSchema,
  memoryMutationSchema,
  appliedOperationSchema,
  memoryCheckpointSchema,
  memoryDirectorySchema,
  entryDiffSchema,
  appendedTextSchema,
  memoryVersionSchema,
  flaggedEntrySchema,
  memoryChangeSchema,
  memoryFileViewSchema,
  preservedBackupSchema,
  memoryMutationResultSchema,
  adoptionStrategySchema,
  adoptionProposalSchema,
  adoptionPlanSchema,
} from './memory-schemas';

const fileRequest = lazySchema(() => z.object({ dir: z.string().min(1), target: memoryTargetSchema }).strict());

/** Calls of the memory store. */
export const memoryCalls = defineCalls({
  'memory:directories': {
    summary: 'The memory directories Vigil manages, with their limits.',
    request: lazySchema(() => z.object({}).strict()),
    response: lazySchema(() => z.object({ directories: z.array(memoryDirectorySchema) })),
  },
  'memory:read': {
    summary: 'A memory file: its entries, usage, limit, drift status and last external change.',
    request: fileRequest,
    response: memoryFileViewSchema,
  },
  'memory:mutate': {
    summary: 'Add, replace or remove entries (or a batch, all or nothing) under the lock, refusing on drift.',
    request: lazySchema(() =>
      fileRequest
        .extend({
          operation: memoryMutationSchema,
          /** How refusals name the operation's fields (the CLI says TEXT and OLD_SUBSTRING); default the contract's own names. */
          fieldNames: z
            .object({ content: z.string().min(1).max(100), oldText: z.string().min(1).max(100) })
            .strict()
            .optional(),
        })
        .strict(),
    ),
    response: memoryMutationResultSchema,
  },
  'memory:propose-adoption': {
    summary: 'Ways to split a drifted file into entries, for the user to confirm.',
    request: fileRequest,
    response: adoptionPlanSchema,
  },
  'memory:keep-appended': {
    summary:
      'Keep text appended outside Vigil to the last entry as an entry of its own (nothing is taken out of the file).',
    request: lazySchema(() =>
      fileRequest
        .extend({
          /** sha256 of the file the appended text was seen in; refused (`conflict`) if the file changed since. */
          basis: z.string(),
          entry: z.string().max(maxOperationText),
          original: z.string().max(maxOperationText),
        })
        .strict(),
    ),
    response: memoryMutationResultSchema,
  },
  'memory:adopt': {
    summary: 'Rewrite a drifted file as the confirmed entries (a backup of it is kept).',
    request: lazySchema(() =>
      fileRequest
        .extend({ basis: z.string().nullable(), entries: z.array(z.string().max(maxOperationText)).max(1000) })
        .strict(),
    ),
    response: memoryMutationResultSchema,
  },
});

/** Events of the memory store. */
export const memoryEvents = defineEvents({
  'memory:changed': {
    summary: 'A memory file changed: written by Vigil or edited outside it (with the entry diff and drift).',
    payload: memoryChangeSchema,
  },
});

/** A target of the contract. */
export type MemoryTarget = z.infer<typeof memoryTargetSchema>;
/** Usage of a file. */
export type MemoryUsage = z.infer<typeof memoryUsageSchema>;
/** A drift report. */
export type DriftReport = z.infer<typeof driftReportSchema>;
/** A drift reason's kind. */
export type DriftKind = z.infer<typeof driftKindSchema>;
/** One operation. */
export type MemoryOperation = z.infer<typeof memoryOperationSchema>;
/** One mutation (an operation or a batch). */
export type MemoryMutation = z.infer<typeof memoryMutationSchema>;
/** What one operation did. */
export type AppliedOperation = z.infer<typeof appliedOperationSchema>;
/** A managed directory. */
export type MemoryDirectoryInfo = z.infer<typeof memoryDirectorySchema>;
/** An entry diff. */
export type EntryDiff = z.infer<typeof entryDiffSchema>;
/** One version of a file. */
export type MemoryVersion = z.infer<typeof memoryVersionSchema>;
/** Text appended to the last entry outside Vigil. */
export type AppendedText = z.infer<typeof appendedTextSchema>;
/** A change event's payload. */
export type MemoryChange = z.infer<typeof memoryChangeSchema>;
/** A file view. */
export type MemoryFileView = z.infer<typeof memoryFileViewSchema>;
/** A mutation's result. */
export type MemoryMutationResult = z.infer<typeof memoryMutationResultSchema>;
/** The checkpoint part of a result. */
export type MemoryCheckpoint = z.infer<typeof memoryCheckpointSchema>;
/** A backup a change kept. */
export type PreservedBackup = z.infer<typeof preservedBackupSchema>;
/** An adoption strategy. */
export type AdoptionStrategy = z.infer<typeof adoptionStrategySchema>;
/** One adoption proposal. */
export type AdoptionProposal = z.infer<typeof adoptionProposalSchema>;
/** The adoption plan. */
export type AdoptionPlan = z.infer<typeof adoptionPlanSchema>;
