import path from 'node:path';
import type { CheckpointRequest } from '../checkpoint-types';
import { DirState } from './dir-state';
import { fileModes } from '../store/git-objects';
import { readStatCache } from './stat-cache';
import { applyListings, scanFolder, scanPaths, type HashCandidate, type ScanContext } from './stat-walk';
import { statCacheFile } from '../store/store-layout';
import type { TrackedDirectory } from './tracked-directory';
import type { SnapshotEngine } from './snapshot';

/** A directory's in-memory state, loaded from its stat cache when it has none yet (which forces a full walk). */
export async function loadDirState(
  engine: SnapshotEngine,
  tracked: TrackedDirectory,
): Promise<{ readonly state: DirState; readonly cached: Buffer | undefined }> {
  const state = tracked.state;
  if (state !== undefined) return { state, cached: undefined };
  const loaded = await readStatCache(statCacheFile(engine.layout, tracked.dirhash), tracked.dir);
  tracked.needsFullScan = true;
  // The stat cache this state was just loaded from: a walk in the workers hands over only what differs from it.
  return { state: loaded?.state ?? new DirState(), cached: loaded?.content };
}

/** What a snapshot's scan found to hash, and whether it looked only at the caller's paths. */
export interface FoundChanges {
  readonly candidates: HashCandidate[];
  /** The caller's paths, relative to the directory. */
  readonly requested: readonly string[];
  readonly isScoped: boolean;
}

/** How a snapshot's scan starts: the state, what it was loaded from, the head check and the dirty paths. */
export interface ScanStart {
  readonly state: DirState;
  readonly cached: Buffer | undefined;
  readonly headMoved: boolean;
  readonly dirty: readonly string[];
}

/** Adds every stored file whose blob the store lacks (it was pruned, or the cache is from elsewhere). */
async function recheckMissingBlobs(
  engine: SnapshotEngine,
  state: DirState,
  candidates: HashCandidate[],
): Promise<void> {
  const queued = new Set(candidates.map((candidate) => candidate.rel));
  await engine.store.preloadLoose();
  try {
    for (const [rel, record] of state.files()) {
      if (queued.has(rel) || (await engine.store.has(record.oid))) continue;
      candidates.push({ rel, isSymlink: record.mode === fileModes.symlink, mode: record.mode });
    }
  } finally {
    engine.store.forgetLoose();
  }
}

/** Walks the whole directory: a big tree in a worker, with blocking calls and no thread-pool round trips. */
async function walkAll(
  engine: SnapshotEngine,
  tracked: TrackedDirectory,
  context: ScanContext,
  start: ScanStart,
  candidates: HashCandidate[],
): Promise<void> {
  const isBig = Math.max(start.state.fileCount, tracked.sizeHint) >= engine.workerThreshold;
  if (isBig || engine.pool.isRunning)
    await engine.pool.walk(
      tracked.dir,
      '',
      engine.ignoredFolders,
      (listings) => applyListings(context, listings, candidates),
      start.cached === undefined ? undefined : { content: start.cached, maxFileBytes: engine.maxFileBytes },
    );
  else await scanFolder(context, '', candidates);
}

/**
 * Finds what changed: only the dirty paths when they can be trusted, else a stat walk against the
 * cache (or, for a scoped request, just the caller's paths).
 */
export async function findChanges(
  engine: SnapshotEngine,
  tracked: TrackedDirectory,
  request: CheckpointRequest,
  start: ScanStart,
): Promise<FoundChanges> {
  const { state, headMoved, dirty } = start;
  const context: ScanContext = {
    root: tracked.dir,
    state,
    maxFileBytes: engine.maxFileBytes,
    ignoredFolders: engine.ignoredFolders,
  };
  const candidates: HashCandidate[] = [];
  const requested = (request.paths ?? [])
    .map((absolute) => tracked.relative(path.resolve(absolute)))
    .filter((rel): rel is string => rel !== undefined);
  const wouldWalk = tracked.needsFullScan || headMoved || !tracked.isWatched;
  // Only the caller's paths matter and the state still equals the head: re-read just them, keep
  // the rest as the head has it, and leave the walk (and the watcher's dirty set) for next time.
  const isScoped = wouldWalk && !headMoved && request.onlyPaths === true && requested.length > 0;
  if (isScoped) {
    await scanPaths(context, requested, candidates);
    for (const rel of dirty) tracked.dirty.add(rel);
  } else if (wouldWalk) {
    await walkAll(engine, tracked, context, start, candidates);
  } else {
    await scanPaths(context, [...dirty, ...requested], candidates);
  }
  if (headMoved && state.fileCount > 0) await recheckMissingBlobs(engine, state, candidates);
  return { candidates, requested, isScoped };
}
