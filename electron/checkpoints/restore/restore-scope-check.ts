import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { canonicalPath, mapLimit, sweepStaleTempFiles } from '../../files';
import { pathKey } from '../../lib';
import {
  absoluteIn,
  createPathScope,
  diffTrees,
  overlayReader,
  readLiveTree,
  withHeldFileOnDisk,
  type KnownHashes,
  type LiveTreeRules,
  type PathScope,
  type TreeChange,
  type TreeReader,
} from '../compare';
import { modeOfStat } from '../snapshot/stat-walk';
import type { RestoreOutcome } from './restore-apply';

/** What the check after a restore compares. */
export interface ScopeCheckInput {
  readonly dir: string;
  /** The checkpoint's root tree (undefined: empty). */
  readonly checkpointTree: string | undefined;
  readonly scope: PathScope;
  readonly rules: LiveTreeRules;
  readonly known: KnownHashes;
  /** What the restore's read-back proved: a file's checkpoint blob while its stat is the one read back. */
  readonly readBack: KnownHashes;
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
 * are listed, since a lookup there is blind to case); every folder the scope covers is listed. A
 * check of the whole directory thereby lists every folder the restore wrote, and sweeps
 * their stale temp files (of writers that died), which the writes then skip
 * (`ApplyInput.isSweepLeftToScopeCheck`). Named files the read-back already proved are not looked
 * at a second time (see `scopeLeftToCheck`).
 */
export async function findUnaccountedChanges(input: ScopeCheckInput): Promise<RestoreOutcome[]> {
  const scope = await scopeLeftToCheck(input);
  if (scope === undefined) return [];
  return compareScope({ ...input, scope });
}

/** Folders, or files, looked at at once. */
const concurrency = 16;

/** Whether no symlink leads to `folder` (it is where a walk that never follows links finds it). */
async function isCanonical(folder: string): Promise<boolean> {
  return pathKey(await canonicalPath(folder).catch(() => '')) === pathKey(folder);
}

/**
 * The part of the scope still to compare, or undefined when nothing is left. A path named one by
 * one that the restore wrote and then read back as the checkpoint's version (after every write and
 * folder fsync: an outcome still `done`) is left out when no symlink leads to its folder now and
 * one lstat finds it as it was read back (inode, size, mtime, ctime, mode): the read-back was that
 * very comparison; a lookup by name would hash nothing and list nothing more. A file changed since
 * its read-back stays in the scope. Only where names are exact (Linux, as for the lookups by name);
 * a folder named, a deletion, anything skipped or refused, and a whole-directory scope are
 * compared as before.
 */
async function scopeLeftToCheck(input: ScopeCheckInput): Promise<PathScope | undefined> {
  const { scope } = input;
  if (scope.paths.length === 0 || process.platform !== 'linux') return scope;
  const verified = input.outcomes.filter(
    (outcome) => outcome.result === 'done' && outcome.action !== 'delete' && scope.names(outcome.path),
  );
  const folderOf = (relativePath: string): string => path.dirname(absoluteIn(input.dir, relativePath));
  const canonical = new Set<string>();
  await mapLimit([...new Set(verified.map((outcome) => folderOf(outcome.path)))], concurrency, async (folder) => {
    if (await isCanonical(folder)) canonical.add(folder);
  });
  const proven = new Set<string>();
  await mapLimit(
    verified.filter((outcome) => canonical.has(folderOf(outcome.path))),
    concurrency,
    async ({ path: relativePath }) => {
      if (await isAsReadBack(input, relativePath)) proven.add(relativePath);
    },
  );
  const left = scope.paths.filter((named) => !proven.has(named));
  if (left.length === 0) return undefined;
  return left.length === scope.paths.length ? scope : createPathScope(left);
}

/** Whether the file is still the one the read-back proved (same stat, same mode). */
async function isAsReadBack(input: ScopeCheckInput, relativePath: string): Promise<boolean> {
  const stats = await lstat(absoluteIn(input.dir, relativePath), { bigint: true }).catch(() => undefined);
  return stats !== undefined && input.readBack.oidOf(relativePath, stats, modeOfStat(stats)) !== undefined;
}

/** Compares the scope with the checkpoint by a walk of the directory; see `findUnaccountedChanges`. */
async function compareScope(input: ScopeCheckInput): Promise<RestoreOutcome[]> {
  const temps: string[] = [];
  const live = await readLiveTree(input.dir, input.rules, input.scope, input.known, {
    onVigilTemp: (temp) => temps.push(temp),
    // Only where names are exact: on a case- or normalization-insensitive file system (macOS, Windows by
    // default) an lstat of README.md finds readme.md, which a listing shows as a different name.
    isNamedLookup: process.platform === 'linux',
  });
  await sweepStaleTempFiles(temps);
  const compared = await diffTrees(overlayReader(live, input.store), input.checkpointTree, live.root, input.scope);
  // A file the checkpoint holds that the live walk leaves out (Hermes's media, build output)
  // is judged by what is on disk.
  const remaining = (await mapLimit(compared, concurrency, (change) => withHeldFileOnDisk(input.dir, change))).filter(
    (change): change is TreeChange => change !== undefined,
  );
  // A path skipped as already matching the checkpoint is not accounted for if it differs now.
  const accounted = new Set(
    input.outcomes
      .filter((outcome) => outcome.result !== 'done' && outcome.reason !== 'unchanged')
      .map((outcome) => outcome.path),
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
