import { sweepStaleTempFiles } from '../../files/sweep-stale-temps';
import type { KnownHashes } from '../diff/diff-known-hashes';
import { overlayReader, readLiveTree, type LiveTreeRules } from '../diff/diff-live-tree';
import type { PathScope } from '../diff/diff-path-scope';
import { diffTrees, type TreeReader } from '../diff/diff-tree-changes';
import type { RestoreOutcome } from './restore-apply';

/** What the check after a restore compares. */
export interface ScopeCheckInput {
  readonly dir: string;
  /** The checkpoint's root tree (undefined: empty). */
  readonly checkpointTree: string | undefined;
  readonly scope: PathScope;
  readonly rules: LiveTreeRules;
  readonly known: KnownHashes;
  readonly store: TreeReader;
  /** The restore's outcomes: paths it skipped or could not restore are expected to still differ. */
  readonly outcomes: readonly RestoreOutcome[];
}

/**
 * Compares the directory with the checkpoint again after a restore, within its scope, and returns
 * an outcome for every path that still differs although the restore did not skip it or report it:
 * a change the pre-rollback snapshot did not see (a watcher event still in flight) or one made
 * while the restore ran. So a restore can never look complete while part of it silently did not happen.
 * On Linux, paths named one by one are looked up by name, as the pre-rollback snapshot looked at
 * them (its scan of named paths), not by listing the folders on their way (elsewhere those folders
 * are listed, since a lookup there is blind to case); every folder the scope covers is listed. A check of the whole directory thereby lists every folder the restore wrote, and sweeps
 * their stale temp files (of writers that died), which the writes then skip
 * (`ApplyInput.isSweepLeftToScopeCheck`).
 */
export async function findUnaccountedChanges(input: ScopeCheckInput): Promise<RestoreOutcome[]> {
  const temps: string[] = [];
  const live = await readLiveTree(input.dir, input.rules, input.scope, input.known, {
    onVigilTemp: (temp) => temps.push(temp),
    // Only where names are exact: on a case- or normalization-insensitive file system (macOS, Windows by
    // default) an lstat of README.md finds readme.md, which a listing shows as a different name.
    isNamedLookup: process.platform === 'linux',
  });
  await sweepStaleTempFiles(temps);
  const remaining = await diffTrees(overlayReader(live, input.store), input.checkpointTree, live.root, input.scope);
  const accounted = new Set(
    input.outcomes.filter((outcome) => outcome.result !== 'done').map((outcome) => outcome.path),
  );
  return remaining
    .filter((change) => !accounted.has(change.path))
    .map((change) => ({
      path: change.path,
      action: change.old === undefined ? 'delete' : change.new === undefined ? 'recreate' : 'restore',
      result: 'conflict',
      message: `${change.path} still differs from the checkpoint: it changed while the restore ran, or just before. Run the restore again (undo stays possible).`,
    }));
}
