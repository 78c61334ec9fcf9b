import type { z } from 'zod';
import type { restoreOutcomeSchema, restoreSkipReasonSchema } from './checkpoints-restore-schemas';

/**
 * Which restore outcomes leave a file unlike the checkpoint, without the schema library: the CLI's
 * restore lists them from a core's answer (already checked by the core), loading no schema to do so.
 */

/**
 * Skip reasons that leave a file the restore was asked to bring back unlike the checkpoint: a
 * restore with any of them (or a conflict, or a failure) is incomplete. `unchanged` and
 * `not-in-checkpoint` are not: the file already matches, or the checkpoint has no version of it.
 */
export const incompleteSkipReasons: ReadonlySet<z.infer<typeof restoreSkipReasonSchema>> = new Set([
  'excluded',
  'oversize',
  'unprotected',
  'blocked',
  'secret',
  'lost',
]);

/** Whether one outcome leaves its file unlike the checkpoint although the restore was meant to bring it back. */
export function isIncompleteOutcome(outcome: z.infer<typeof restoreOutcomeSchema>): boolean {
  if (outcome.result === 'conflict' || outcome.result === 'failed') return true;
  return outcome.result === 'skipped' && outcome.reason !== undefined && incompleteSkipReasons.has(outcome.reason);
}

/** Whether a path names a secrets file (`.env*`), which a restore writes only when the user confirms. */
export function isSecretsFilePath(relativePath: string): boolean {
  return (relativePath.split('/').pop() ?? '').startsWith('.env');
}

/** What `restoreWroteSecrets` reads of a restore's result. */
export interface SecretsWrittenView {
  readonly plan: {
    readonly entries: readonly { readonly path: string; readonly action?: string; readonly isSecret?: boolean }[];
  };
  readonly outcomes: readonly { readonly path: string; readonly result: string }[];
}

/**
 * Whether a restore wrote, re-created or deleted a secrets file (`.env*`; the user confirmed it, or
 * named it): its undo must be let do the same (`--secrets`), or it would skip that file and leave
 * the restore's version in place.
 */
export function restoreWroteSecrets(result: SecretsWrittenView): boolean {
  // A deleted one counts too: its undo writes it back, which a restore does only when let (a delete is no `isSecret` entry).
  const secrets = new Set(
    result.plan.entries
      .filter((entry) => entry.isSecret === true || (entry.action === 'delete' && isSecretsFilePath(entry.path)))
      .map((entry) => entry.path),
  );
  return result.outcomes.some((outcome) => outcome.result === 'done' && secrets.has(outcome.path));
}
