import type { z } from 'zod';
import {
  isIncompleteOutcome,
  type restorePlanEntrySchema,
  type restoreResultSchema,
} from '../../shared/contract/checkpoints-restore-schemas';
import { describeActor } from '../../shared/contract/actor-model';
import { escapeControls } from '../../shared/text/control-characters';
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
  secret: "a secrets file from another program's store: written only when you confirm",
  lost: 'the checkpoint did not store it and it is gone now: nothing can bring it back',
};

/** A restore plan's entries as the confirmation shows them (`named`: the paths the restore was limited to). */
export function planFilesOf(entries: readonly RestorePlanEntry[], named: readonly string[] = []): PlanFile[] {
  return entries.map((entry) => ({
    path: entry.path,
    action: entry.action,
    reason:
      entry.isSecret === true && entry.action !== 'skip'
        ? named.includes(entry.path)
          ? 'secrets file: selected by name, so written'
          : 'secrets file: written only if you allow it below'
        : (entry.note ?? (entry.reason === undefined ? undefined : skipReasons[entry.reason])),
    isChangedOutside: entry.isChangedOutsideAgents,
    changedBy: entry.changedBy === undefined ? undefined : escapeControls(describeActor(entry.changedBy)),
  }));
}

/** The secrets files (`.env*`) a plan would write only with the user's consent: those not selected by name. */
export function unconfirmedSecrets(entries: readonly RestorePlanEntry[], named: readonly string[]): string[] {
  return entries
    .filter((entry) => entry.isSecret === true && entry.action !== 'skip' && !named.includes(entry.path))
    .map((entry) => entry.path);
}

/** The paths a restore really changed: undoing it touches these and nothing else. */
export function changedPaths(result: RestoreResult): string[] {
  return result.outcomes
    .filter((outcome) => outcome.result === 'done' && outcome.action !== 'skip')
    .map((outcome) => outcome.path);
}

/** The files a restore was to bring back and could not, with the reason for each (see `isIncompleteOutcome`). */
export function restoreProblems(result: RestoreResult): Array<{ readonly path: string; readonly why: string }> {
  return result.outcomes.filter(isIncompleteOutcome).map((outcome) => ({
    path: outcome.path,
    why:
      outcome.result === 'conflict'
        ? 'changed during the restore; left as found'
        : (outcome.message ?? (outcome.reason === undefined ? 'failed' : skipReasons[outcome.reason])),
  }));
}

/** The headline of a restore's outcome: incomplete when any file could not be brought back, "nothing to restore" only when all matched. */
export function restoreHeadline(result: RestoreResult, wasUndo: boolean): string {
  switch (result.status) {
    case 'incomplete':
      return wasUndo ? 'Undo incomplete' : 'Restore incomplete';
    case 'nothing-to-do':
      return 'Nothing to restore';
    case 'complete':
      return wasUndo ? 'Restore undone' : 'Restored';
  }
}

/** One sentence about a restore's outcome, problems first. */
export function describeRestore(result: RestoreResult): string {
  if (result.status === 'nothing-to-do') return 'The directory already matched the checkpoint.';
  const { counts } = result;
  const parts = [`${counts.done} file${counts.done === 1 ? '' : 's'} changed`];
  if (result.incomplete > 0)
    parts.unshift(`${result.incomplete} file${result.incomplete === 1 ? '' : 's'} could not be restored`);
  const alone =
    counts.skipped -
    result.outcomes.filter((outcome) => outcome.result === 'skipped' && isIncompleteOutcome(outcome)).length;
  if (alone > 0) parts.push(`${alone} left alone`);
  return `${parts.join(', ')}${result.isVerified && counts.done > 0 ? '; every written file was read back and verified' : ''}.`;
}
