import { lstat, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { isAppError } from '../../../shared/errors';
import type { restoreOutcomeSchema } from '../../../shared/contract/checkpoints-restore-schemas';
import { errnoCode, fileSystemError } from '../../files/file-system-error';
import { mapLimit } from '../../files/map-limit';
import { sweepStaleTempFiles, sweepStaleTemps } from '../../files/sweep-stale-temps';
import { FolderSyncs } from './restore-folder-syncs';
import { lookupPath, type TreeReader } from '../diff/diff-tree-changes';
import { absoluteIn } from './restore-disk';
import {
  deleteFile,
  expectVersion,
  putFile,
  readDiskVersion,
  type DiskVersion,
  type KnownOid,
} from './restore-file-ops';
import { fileIdentityOf, isSameIdentity } from '../../files/file-identity';
import type { KnownHashes } from '../diff/diff-known-hashes';
import type { RestorePlan, RestorePlanEntry } from './restore-plan';
import type { ObservedVersion } from './restore-write-ledger';

/** What happened to one path. */
export type RestoreOutcome = z.output<typeof restoreOutcomeSchema>;

/** A step of a running restore. */
export interface ApplyProgress {
  readonly phase: 'write' | 'verify';
  readonly done: number;
  readonly total: number;
}

/** What applying needs besides the plan. */
export interface ApplyInput {
  readonly plan: RestorePlan;
  /** The checkpoint's root tree and a reader, to know which folders it had. */
  readonly checkpointTree: string | undefined;
  readonly reader: TreeReader;
  readBlob(oid: string): Promise<Uint8Array>;
  onProgress?(progress: ApplyProgress): void;
  /** The pre-rollback snapshot's stat records: a file whose stat they vouch for is not read again before it is replaced. */
  readonly known?: KnownHashes;
  /** The check of the scope after writing lists these folders anyway and sweeps their stale temp files then (no listing here). */
  readonly isSweepLeftToScopeCheck?: boolean;
  /** Vigil temp files found in some of the folders to write, by folder (listed while the snapshot ran): those folders are not listed again. */
  readonly listedTemps?: ReadonlyMap<string, readonly string[]>;
}

/** What applying did. */
export interface ApplyResult {
  readonly outcomes: readonly RestoreOutcome[];
  readonly removedDirectories: readonly string[];
  /** Absolute paths written or deleted (for the engine's dirty set). */
  readonly touched: readonly string[];
  /** What the read-back found at each of them (for the write ledger: no need to look again). */
  readonly written: readonly ObservedVersion[];
  readonly isVerified: boolean;
  /**
   * What the read-back found, by path: a file whose stat is still the one read back holds what was
   * verified, so a check of the scope right after need not read it a fifth time.
   */
  readonly readBack: KnownHashes;
}

/** Files written or deleted at once: enough to overlap fsyncs, few enough for descriptor limits. */
const writeConcurrency = 16;

/** Progress is reported at most this often (files), plus at the end. */
const progressStep = 64;

function failure(entry: RestorePlanEntry, error: unknown): RestoreOutcome {
  if (!isAppError(error)) throw error;
  return {
    path: entry.path,
    action: entry.action,
    result: error.code === 'conflict' ? 'conflict' : 'failed',
    message: error.message,
  };
}

/** Removes `target` when it is an empty folder (true), and leaves anything else alone (false). */
async function removeEmptyFolder(target: string): Promise<boolean> {
  const stats = await lstat(target).catch(() => undefined);
  if (stats?.isDirectory() !== true) return false;
  try {
    await rmdir(target);
    return true;
  } catch (error) {
    if (['ENOTEMPTY', 'EEXIST', 'ENOENT'].includes(errnoCode(error) ?? '')) return false;
    throw fileSystemError(error, 'delete', target);
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
    try {
      await rmdir(absoluteIn(input.plan.dir, folder));
      removed.push(folder);
    } catch (error) {
      // Not empty (it holds files the restore leaves alone) or already gone: either way it stays as it is.
      if (!['ENOTEMPTY', 'EEXIST', 'ENOENT', 'ENOTDIR'].includes(errnoCode(error) ?? '')) throw error;
    }
  }
  return removed;
}

/** What the write steps of one apply share: outcomes so far, folders to fsync, paths touched. */
interface ApplyState {
  readonly outcomes: Map<string, RestoreOutcome>;
  /** The folders the deletions changed (the writes fsync theirs as they finish, see FolderSyncs). */
  readonly toSync: Set<string>;
  readonly touched: string[];
  readonly knownOid: (entry: RestorePlanEntry) => KnownOid | undefined;
  /** Counts one more file written or deleted (and reports progress now and then). */
  readonly advance: () => void;
}

function applyState(input: ApplyInput, total: number): ApplyState {
  const { known } = input;
  let done = 0;
  return {
    outcomes: new Map<string, RestoreOutcome>(),
    toSync: new Set<string>(),
    touched: [],
    knownOid: (entry) => (known === undefined ? undefined : (stats, mode) => known.oidOf(entry.path, stats, mode)),
    advance: () => {
      done += 1;
      if (done % progressStep === 0 || done === total) input.onProgress?.({ phase: 'write', done, total });
    },
  };
}

/** Deletes the files the plan deletes, each only while it is still the snapshot's version. */
async function applyDeletions(
  input: ApplyInput,
  state: ApplyState,
  deletions: readonly RestorePlanEntry[],
): Promise<void> {
  await mapLimit(deletions, writeConcurrency, async (entry) => {
    const target = absoluteIn(input.plan.dir, entry.path);
    try {
      await deleteFile(target, (await expectVersion(target, entry.current, state.knownOid(entry))).identity);
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
async function removeEmptiedFolders(
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
async function applyWrites(
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
      if (entry.action === 'recreate' && (await removeEmptyFolder(target))) emptied.push(entry.path);
      const found = await expectVersion(target, entry.current, state.knownOid(entry));
      const written = await putFile(target, wanted, await input.readBlob(wanted.oid), found);
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
  await syncs.settled();
  return emptied;
}

/** Reads every done path back against the checkpoint; a mismatch turns its outcome into `failed`. */
async function verifyReadBack(
  input: ApplyInput,
  outcomes: Map<string, RestoreOutcome>,
): Promise<{ readonly isVerified: boolean; readonly readBack: Map<string, DiskVersion> }> {
  const { plan } = input;
  let isVerified = true;
  const readBack = new Map<string, DiskVersion>();
  const byPath = new Map(plan.entries.map((entry) => [entry.path, entry]));
  const verified = [...outcomes.values()].filter((outcome) => outcome.result === 'done');
  let checked = 0;
  await mapLimit(verified, writeConcurrency, async (outcome) => {
    const entry = byPath.get(outcome.path);
    const found = await readDiskVersion(absoluteIn(plan.dir, outcome.path));
    readBack.set(outcome.path, found);
    const wanted = entry?.action === 'delete' ? undefined : entry?.checkpoint;
    const matches =
      wanted === undefined
        ? found.file === undefined
        : found.file?.oid === wanted.oid && found.file.mode === wanted.mode;
    if (!matches) {
      isVerified = false;
      outcomes.set(outcome.path, {
        ...outcome,
        result: 'failed',
        message: `${outcome.path} does not hold the checkpoint's version after the restore (another program changed it?). Restore it again.`,
      });
    }
    checked += 1;
    if (checked % progressStep === 0 || checked === verified.length)
      input.onProgress?.({ phase: 'verify', done: checked, total: verified.length });
  });
  return { isVerified, readBack };
}

/** Every plan entry's outcome in plan order; entries nothing happened to are `skipped` with the plan's reason. */
function orderedOutcomes(plan: RestorePlan, outcomes: Map<string, RestoreOutcome>): RestoreOutcome[] {
  return plan.entries.map(
    (entry): RestoreOutcome =>
      outcomes.get(entry.path) ?? {
        path: entry.path,
        action: entry.action,
        result: 'skipped',
        ...(entry.reason !== undefined && { reason: entry.reason }),
        ...(entry.note !== undefined && { message: entry.note }),
      },
  );
}

/** Known hashes from the read-back: a file whose stat is still the one read back holds what was verified. */
function readBackHashes(readBack: Map<string, DiskVersion>): KnownHashes {
  return {
    oidOf(relativePath, stats, mode) {
      const found = readBack.get(relativePath);
      if (found?.file === undefined || found.file.mode !== mode) return undefined;
      return isSameIdentity(found.identity, fileIdentityOf(stats)) ? found.file.oid : undefined;
    },
  };
}

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
