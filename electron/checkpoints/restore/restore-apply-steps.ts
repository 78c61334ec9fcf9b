import { rmdir } from 'node:fs/promises';
import path from 'node:path';
import { isAppError } from '../../../shared/errors';
import { errnoCode, fileSystemError, holdDirectory, mapLimit, sweepStaleTempFiles, sweepStaleTemps } from '../../files';
import { FolderSyncs } from './restore-folder-syncs';
import { absoluteIn, lookupPath, type DiskVersion, type KnownOid } from '../compare';
import { deleteFile, expectVersion, putFile } from './restore-file-ops';
import type { RestorePlanEntry } from './restore-plan';
import { progressStep, writeConcurrency, type ApplyInput, type RestoreOutcome } from './restore-apply-types';

/** The outcome of an entry whose step failed with an expected error (a bug propagates). */
function failure(entry: RestorePlanEntry, error: unknown): RestoreOutcome {
  if (!isAppError(error)) throw error;
  return {
    path: entry.path,
    action: entry.action,
    result: error.code === 'conflict' ? 'conflict' : 'failed',
    message: error.message,
  };
}

/** Errors of an `rmdir` that leave the entry as it is: not empty, not a folder (a file, a symlink), or gone. */
const keptCodes = new Set(['ENOTEMPTY', 'EEXIST', 'ENOENT', 'ENOTDIR']);

/**
 * Removes the folder `relativePath` of `dir` when it is empty (true), and leaves anything else alone
 * (false). The `rmdir` goes through its parent folder held open: a folder on the way that an agent
 * swapped for a symlink (to a folder outside the workspace) refuses it, so nothing is removed there.
 */
async function removeEmptyFolder(dir: string, relativePath: string): Promise<boolean> {
  const target = absoluteIn(dir, relativePath);
  const parent = await holdDirectory(path.dirname(target)).catch((error: unknown) => {
    if (isAppError(error) && error.code === 'conflict') return undefined;
    throw error;
  });
  if (parent === undefined) return false;
  try {
    await rmdir(parent.entry(path.basename(target)));
    return true;
  } catch (error) {
    if (keptCodes.has(errnoCode(error) ?? '')) return false;
    throw fileSystemError(error, 'delete', target);
  } finally {
    await parent.close();
  }
}

/** Removes folders that the deletions emptied and the checkpoint does not have, deepest first. */
async function removeEmptied(input: ApplyInput, deleted: readonly string[]): Promise<string[]> {
  const candidates = new Set<string>();
  for (const relativePath of deleted) {
    for (let folder = path.posix.dirname(relativePath); folder !== '.'; folder = path.posix.dirname(folder))
      candidates.add(folder);
  }
  const removed: string[] = [];
  const deepestFirst = [...candidates].sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1));
  for (const folder of deepestFirst) {
    if ((await lookupPath(input.reader, input.checkpointTree, folder))?.type === 'tree') continue;
    // Not empty (it holds files the restore leaves alone), already gone, or not reached inside: it stays as it is.
    if (await removeEmptyFolder(input.plan.dir, folder)) removed.push(folder);
  }
  return removed;
}

/** What the write steps of one apply share: outcomes so far, folders to fsync, paths touched. */
export interface ApplyState {
  readonly outcomes: Map<string, RestoreOutcome>;
  /** The folders the deletions changed (the writes fsync theirs as they finish, see FolderSyncs). */
  readonly toSync: Set<string>;
  readonly touched: string[];
  /** The version the plan found at the entry's path (checked against the snapshot's), or the one on disk now. */
  readonly found: (entry: RestorePlanEntry, target: string) => Promise<DiskVersion>;
  /** Counts one more file written or deleted (and reports progress now and then). */
  readonly advance: () => void;
}

/** The shared state of one apply's write steps, counting progress over `total` files. */
export function applyState(input: ApplyInput, total: number): ApplyState {
  const { known, seen } = input;
  const knownOid = (entry: RestorePlanEntry): KnownOid | undefined =>
    known === undefined ? undefined : (stats, mode) => known.oidOf(entry.path, stats, mode);
  let done = 0;
  return {
    outcomes: new Map<string, RestoreOutcome>(),
    toSync: new Set<string>(),
    touched: [],
    found: (entry, target) =>
      expectVersion({ path: target, dir: input.plan.dir }, entry.current, knownOid(entry), seen?.get(entry.path)),
    advance: () => {
      done += 1;
      if (done % progressStep === 0 || done === total) input.onProgress?.({ phase: 'write', done, total });
    },
  };
}

/** Deletes the files the plan deletes, each only while it is still the snapshot's version. */
export async function applyDeletions(
  input: ApplyInput,
  state: ApplyState,
  deletions: readonly RestorePlanEntry[],
): Promise<void> {
  await mapLimit(deletions, writeConcurrency, async (entry) => {
    const target = absoluteIn(input.plan.dir, entry.path);
    try {
      await deleteFile(target, (await state.found(entry, target)).identity);
      state.toSync.add(path.dirname(target));
      state.touched.push(target);
      state.outcomes.set(entry.path, { path: entry.path, action: entry.action, result: 'done' });
    } catch (error) {
      state.outcomes.set(entry.path, failure(entry, error));
    }
    state.advance();
  });
}

/** Removes the folders the deletions emptied; a removed folder's parent is fsynced instead of the folder. */
export async function removeEmptiedFolders(
  input: ApplyInput,
  state: ApplyState,
  deletions: readonly RestorePlanEntry[],
): Promise<string[]> {
  const deleted = deletions
    .filter((entry) => state.outcomes.get(entry.path)?.result === 'done')
    .map((entry) => entry.path);
  const removedDirectories = await removeEmptied(input, deleted);
  const removed = new Set(removedDirectories.map((folder) => absoluteIn(input.plan.dir, folder)));
  for (const folder of removed) {
    state.toSync.delete(folder);
    if (!removed.has(path.dirname(folder))) state.toSync.add(path.dirname(folder));
  }
  return removedDirectories;
}

/** Sweeps the stale temp files of the folders written: those already listed from that listing, the others listed now. */
async function sweepFolders(
  folders: readonly string[],
  listed: ReadonlyMap<string, readonly string[]> = new Map(),
): Promise<void> {
  const unlisted = folders.filter((folder) => !listed.has(folder));
  const temps = folders.flatMap((folder) => listed.get(folder) ?? []);
  await Promise.all([mapLimit(unlisted, writeConcurrency, sweepStaleTemps), sweepStaleTempFiles(temps)]);
}

/**
 * Writes every restored and re-created file atomically, fsyncing each folder once its writes are
 * done and the deletions' folders at the end; returns the empty folders that gave way to a file.
 */
export async function applyWrites(
  input: ApplyInput,
  state: ApplyState,
  writes: readonly RestorePlanEntry[],
): Promise<string[]> {
  const emptied: string[] = [];
  const writeFolders = writes.map((entry) => path.dirname(absoluteIn(input.plan.dir, entry.path)));
  // Stale temp files (of writers that died) go while the writes run: a sweep never takes an in-flight temp file.
  const sweeping =
    input.isSweepLeftToScopeCheck === true ? undefined : sweepFolders([...new Set(writeFolders)], input.listedTemps);
  const syncs = new FolderSyncs(writeFolders);
  // Folders the deletions changed are fsynced once the writes are done, as before.
  for (const folder of state.toSync) syncs.later(folder);
  await mapLimit(writes, writeConcurrency, async (entry) => {
    const target = absoluteIn(input.plan.dir, entry.path);
    let changed: readonly string[] = [];
    try {
      const wanted = entry.checkpoint;
      if (wanted === undefined) throw new Error(`plan entry ${entry.path} has no checkpoint version`);
      // A tracked file that became an empty folder: the folder holds nothing, so it gives way.
      if (entry.action === 'recreate' && (await removeEmptyFolder(input.plan.dir, entry.path)))
        emptied.push(entry.path);
      const found = await state.found(entry, target);
      const written = await putFile(target, wanted, await input.readBlob(wanted.oid), found, (held) =>
        syncs.syncHeld(held),
      );
      changed = written.directoriesToSync;
      state.touched.push(target);
      state.outcomes.set(entry.path, { path: entry.path, action: entry.action, result: 'done' });
    } catch (error) {
      state.outcomes.set(entry.path, failure(entry, error));
    }
    // Its folder is fsynced now if no other write into it is left and one of them wrote (not after failures only).
    syncs.finished(path.dirname(target), changed);
    state.advance();
  });
  await sweeping;
  // Nothing is read back or reported before every folder written is durable.
  markVanished(input, state, await syncs.settled());
  return emptied;
}

/**
 * A folder another program moved away (or removed, or put something else in its place) while the
 * restore wrote into it cannot be made durable where it was: each change done in it is reported
 * failed, saying so, instead of the whole restore ending in an error that reports nothing of what it did.
 */
function markVanished(input: ApplyInput, state: ApplyState, vanished: ReadonlySet<string>): void {
  if (vanished.size === 0) return;
  for (const [relative, outcome] of state.outcomes) {
    const folder = path.dirname(absoluteIn(input.plan.dir, relative));
    if (outcome.result !== 'done' || !vanished.has(folder)) continue;
    state.outcomes.set(relative, {
      ...outcome,
      result: 'failed',
      message: `${path.dirname(relative)} was moved away or removed (or replaced) by another program while the restore changed ${relative} in it, so that change is not known to be where it belongs. Look at the folder, then restore again (undo stays possible).`,
    });
  }
}
