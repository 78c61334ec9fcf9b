import { absoluteIn } from '../compare';
import type { ApplyInput, ApplyResult } from './restore-apply-types';
import { applyDeletions, applyState, applyWrites, removeEmptiedFolders } from './restore-apply-steps';
import { orderedOutcomes, readBackHashes, verifyReadBack } from './restore-apply-verify';

export type { ApplyInput, ApplyProgress, ApplyResult, RestoreOutcome } from './restore-apply-types';

/**
 * Applies a plan made against the pre-rollback snapshot: deletes first (so a file or symlink in
 * the way of a folder goes before the folder is filled), then removes the folders that emptied
 * (unless the checkpoint has them), then writes every restored and re-created file atomically
 * (each folder fsynced once its writes are done, the deletions' folders after the last write),
 * then, every touched folder durable, reads every result back against the checkpoint's blobs.
 * Before anything is overwritten or deleted it must still be the version the snapshot stored;
 * a file that changed meanwhile is left as found and reported as a `conflict`.
 */
export async function applyRestorePlan(input: ApplyInput): Promise<ApplyResult> {
  const actions = input.plan.entries.filter((entry) => entry.action !== 'skip');
  const state = applyState(input, actions.length);
  input.onProgress?.({ phase: 'write', done: 0, total: actions.length });

  const deletions = actions.filter((entry) => entry.action === 'delete');
  await applyDeletions(input, state, deletions);
  const removedDirectories = await removeEmptiedFolders(input, state, deletions);

  const emptied = await applyWrites(
    input,
    state,
    actions.filter((entry) => entry.action !== 'delete'),
  );

  const { isVerified, readBack } = await verifyReadBack(input, state.outcomes);
  return {
    outcomes: orderedOutcomes(input.plan, state.outcomes),
    removedDirectories: [...removedDirectories, ...emptied],
    touched: state.touched,
    written: [...readBack].map(([relativePath, found]) => ({
      path: absoluteIn(input.plan.dir, relativePath),
      identity: found.identity,
    })),
    isVerified,
    readBack: readBackHashes(readBack),
  };
}
