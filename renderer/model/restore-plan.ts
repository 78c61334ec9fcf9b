import type { z } from 'zod';
import type { restorePlanEntrySchema, restoreResultSchema } from '../../shared/contract/checkpoints-restore-schemas';
import type { PlanFile } from './plan-summary';

/** One line of a restore plan, as the contract carries it. */
export type RestorePlanEntry = z.infer<typeof restorePlanEntrySchema>;
/** The outcome of a restore, as the contract carries it. */
export type RestoreResult = z.infer<typeof restoreResultSchema>;

const skipReasons: Readonly<Record<NonNullable<RestorePlanEntry['reason']>, string>> = {
  unchanged: 'already matches',
  excluded: 'excluded (dependencies, build output, secrets): never touched',
  oversize: 'over the size cap, so no snapshot holds it: never touched',
  unprotected: 'no snapshot can hold it: never touched',
  'not-in-checkpoint': 'the checkpoint did not store it',
  blocked: 'something in its way cannot be moved',
};

/** A restore plan's entries as the confirmation shows them. */
export function planFilesOf(entries: readonly RestorePlanEntry[]): PlanFile[] {
  return entries.map((entry) => ({
    path: entry.path,
    action: entry.action,
    reason: entry.note ?? (entry.reason === undefined ? undefined : skipReasons[entry.reason]),
    isChangedOutside: entry.isChangedOutsideAgents,
  }));
}

/** The paths a restore really changed: undoing it touches these and nothing else. */
export function changedPaths(result: RestoreResult): string[] {
  return result.outcomes.filter((outcome) => outcome.result === 'done' && outcome.action !== 'skip').map((outcome) => outcome.path);
}

/** One sentence about a restore's outcome, problems first. */
export function describeRestore(result: RestoreResult): string {
  const { counts } = result;
  const parts = [`${counts.done} file${counts.done === 1 ? '' : 's'} changed`];
  if (counts.skipped > 0) parts.push(`${counts.skipped} left alone`);
  if (counts.conflict > 0) parts.push(`${counts.conflict} changed during the restore and left as found`);
  if (counts.failed > 0) parts.push(`${counts.failed} failed`);
  return `${parts.join(', ')}${result.isVerified ? '; every written file was read back and verified' : ''}.`;
}
