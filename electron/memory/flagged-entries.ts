import type { z } from 'zod';
import type { flaggedEntrySchema } from '../../shared/contract/memory-contract';
import { findThreat } from './memory-threats';

/** An entry that reads like an instruction to the agent, and what the scan found in it. */
export type FlaggedEntry = z.infer<typeof flaggedEntrySchema>;

/**
 * The entries that Vigil's own memory tool would refuse (the memory scan's patterns, invisible
 * characters): written outside Vigil, they reach the agent's prompt all the same, so the UI flags
 * them where the change and an adoption show them.
 */
export function flaggedEntries(entries: readonly string[]): FlaggedEntry[] {
  return entries.flatMap((entry) => {
    const finding = findThreat(entry);
    return finding === undefined ? [] : [{ entry, what: finding.what }];
  });
}
