import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { CheckpointRequest } from '../checkpoint-types';
import { DirState } from './dir-state';
import { fileModes, statCacheFile } from '../../git-store';
import { decodeStatCache } from './stat-cache';
import { readCheckedStatCache, type CheckedStatCache } from './stat-cache-format';
import type { FolderListing } from './folder-listing';
import { applyListings, scanFolder, scanPaths, type HashCandidate, type ScanContext } from './stat-walk';
import type { TrackedDirectory } from './tracked-directory';
import type { WalkHeadStart } from './walk-head-start';
import type { SnapshotEngine } from './snapshot-engine';
import { foldersWithGit } from './nested-repositories';

/**
 * Where a snapshot's state comes from: the one in memory, the stat cache (decoded while the
 * workers walk against its bytes), or nothing yet (a first snapshot, or a cache that is damaged).
 */
export type StateSource =
  | { readonly kind: 'memory'; readonly state: DirState }
  | { readonly kind: 'cache'; readonly cache: CheckedStatCache }
  | { readonly kind: 'none' };

/**
 * The directory's state in memory, else its checked stat cache (which forces a full walk): the one
 * a head start read and walks against, if it still holds the lock it read it under; else nothing.
 */
export async function openDirState(
  engine: SnapshotEngine,
  tracked: TrackedDirectory,
  headStart?: WalkHeadStart,
): Promise<StateSource> {
  if (tracked.state !== undefined) return { kind: 'memory', state: tracked.state };
  if (headStart !== undefined) {
    tracked.needsFullScan = true;
    return { kind: 'cache', cache: headStart.cache };
  }
  const cache = await readCheckedStatCache(statCacheFile(engine.layout, tracked.dirhash), tracked.dir);
  tracked.needsFullScan = true;
  return cache === undefined ? { kind: 'none' } : { kind: 'cache', cache };
}

/** The state of a source (a cache decoded now; one that does not add up gives an empty state, so the walk finds everything). */
function stateOf(source: StateSource): DirState {
  if (source.kind === 'memory') return source.state;
  if (source.kind === 'none') return new DirState();
  return decodeStatCache(source.cache) ?? new DirState();
}

/** What a snapshot's scan found to hash, and the state it applied it to. */
export interface FoundChanges {
  readonly state: DirState;
  /** The state was of another head than the timeline's (another process, a repair): every tree is rebuilt. */
  readonly headMoved: boolean;
  readonly candidates: HashCandidate[];
  /** The request's `forcePaths`, relative to the directory. */
  readonly forced: readonly string[];
}

/** How a snapshot's scan starts: where its state comes from, the timeline's head and the dirty paths. */
export interface ScanStart {
  readonly source: StateSource;
  /** A walk of `source`'s cache begun before the snapshot, under the same hold of the lock. */
  readonly headStart?: WalkHeadStart | undefined;
  readonly head: string | undefined;
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

function scanContext(engine: SnapshotEngine, tracked: TrackedDirectory, state: DirState): ScanContext {
  return {
    root: tracked.dir,
    state,
    maxFileBytes: engine.maxFileBytes,
    ignoredFolders: engine.ignoredFolders,
    rules: engine.rules,
  };
}

/** The listings a worker walk against the cache hands over (those that differ from it), once it ends. */
function walkAgainstCache(
  engine: SnapshotEngine,
  tracked: TrackedDirectory,
  cache: CheckedStatCache,
  headStart: WalkHeadStart | undefined,
): Promise<readonly (readonly FolderListing[])[]> {
  const walk = (): Promise<readonly (readonly FolderListing[])[]> => {
    const handed: (readonly FolderListing[])[] = [];
    return engine.pool
      .walk(
        tracked.dir,
        '',
        engine.ignoredFolders,
        (listings) => handed.push(listings),
        { content: cache.content, maxFileBytes: engine.maxFileBytes },
        engine.rules.data,
      )
      .then(() => handed);
  };
  // A head start's walk of this very cache by these rules, made under the lock held since: its outcome is this walk's (a failed one is walked again).
  return headStart?.cache === cache && headStart.rulesKey === engine.rules.key ? headStart.walked.catch(walk) : walk();
}

/** The newest commits of a timeline read this many at most ahead of need (the default retention keeps 50). */
const warmedCommits = 200;

/**
 * Reads the newest commits of the timeline into its cache, in the background: after the commit, the
 * retention cut walks the timeline back from it (and the stats read the head's), one read after
 * another on the path to the process's end; read while the workers walk, they are in memory then.
 * Only reads, of objects that never change; a failed read is simply read again when needed.
 */
export async function warmTimeline(
  engine: Pick<SnapshotEngine, 'refs' | 'timeline'>,
  head: string | undefined,
): Promise<void> {
  if (head === undefined) return;
  await engine.refs
    .readShallow()
    .then((shallow) => engine.timeline.walk(head, shallow, warmedCommits))
    .catch(() => undefined);
}

/**
 * Walks the whole directory: a big tree in the workers, with blocking calls and no thread-pool
 * round trips. The workers start on a stat cache's bytes before this thread decodes it (its
 * folders' entries are decoded on first use: only those the workers hand over, which differ from
 * it, ever are); a head start's workers may have walked already. `prepare` gets the state before
 * anything is applied to it.
 */
async function walkAll(
  engine: SnapshotEngine,
  tracked: TrackedDirectory,
  start: {
    readonly source: StateSource;
    readonly headStart?: WalkHeadStart | undefined;
    readonly head?: string | undefined;
  },
  prepare: (state: DirState) => void,
  candidates: HashCandidate[],
): Promise<DirState> {
  const { source, headStart } = start;
  const files = source.kind === 'memory' ? source.state.fileCount : source.kind === 'cache' ? source.cache.files : 0;
  const isBig = Math.max(files, tracked.sizeHint) >= engine.workerThreshold;
  if (source.kind !== 'cache' || !(isBig || engine.pool.isRunning || headStart !== undefined)) {
    const state = stateOf(source);
    prepare(state);
    const context = scanContext(engine, tracked, state);
    if (isBig || engine.pool.isRunning)
      await engine.pool.walk(
        tracked.dir,
        '',
        engine.ignoredFolders,
        (listings) => applyListings(context, listings, candidates),
        undefined,
        engine.rules.data,
      );
    else await scanFolder(context, '', candidates);
    return state;
  }
  const walking = walkAgainstCache(engine, tracked, source.cache, headStart);
  // Observed at once (it is awaited below); the walk's first messages go out before the decoding.
  walking.catch(() => undefined);
  await yieldToLoop();
  const decoded = decodeStatCache(source.cache);
  // This thread would only wait for the walk now: it reads the timeline meanwhile.
  void warmTimeline(engine, start.head);
  const handed = await walking;
  // A cache whose header checked out but whose body does not add up: the walk compared against it is no use.
  if (decoded === undefined) return walkAll(engine, tracked, { source: { kind: 'none' } }, prepare, candidates);
  prepare(decoded);
  const context = scanContext(engine, tracked, decoded);
  for (const listings of handed) applyListings(context, listings, candidates);
  return decoded;
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
  const { source, head, dirty } = start;
  const savedHead =
    source.kind === 'memory' ? source.state.head : source.kind === 'cache' ? source.cache.head : undefined;
  // Someone else (another process, a repair) moved the timeline: trust stat records only for
  // blobs the store still holds, and rebuild every tree.
  const headMoved = savedHead !== head;
  const prepare = (state: DirState): void => {
    if (headMoved) state.invalidateTrees();
  };
  const candidates: HashCandidate[] = [];
  const requested = (request.paths ?? [])
    .map((absolute) => tracked.relative(path.resolve(absolute)))
    .filter((rel): rel is string => rel !== undefined);
  const wouldWalk = tracked.needsFullScan || headMoved || !tracked.isWatched;
  let state: DirState;
  if (wouldWalk) {
    state = await walkAll(engine, tracked, start, prepare, candidates);
  } else {
    state = stateOf(source);
    prepare(state);
    await scanPaths(scanContext(engine, tracked, state), [...dirty, ...requested], candidates);
  }
  const forced = (request.forcePaths ?? [])
    .map((absolute) => tracked.relative(path.resolve(absolute)))
    .filter((rel): rel is string => rel !== undefined);
  if (forced.length > 0) await scanPaths(scanContext(engine, tracked, state), forced, candidates, true);
  if (headMoved && state.fileCount > 0) await recheckMissingBlobs(engine, state, candidates);
  return { state, headMoved, candidates, forced };
}

/** How many times one snapshot rebuilds its rules for the repositories its walk found (one per level of nesting at most). */
const maxRediscoveries = 9;

/**
 * `findChanges`, then, when the walk met folders holding a `.git` other than those the rules were
 * built with (a clone inside the directory, one removed), the rules rebuilt with them and the
 * changes found again by a walk under the new rules (their candidates replace the first ones, which
 * were judged by the old rules). Returns the engine with the rules the changes were found by.
 */
export async function findChangesDiscovering(
  engine: SnapshotEngine,
  tracked: TrackedDirectory,
  request: CheckpointRequest,
  start: ScanStart,
): Promise<{ readonly engine: SnapshotEngine; readonly changes: FoundChanges }> {
  let active = engine;
  let changes = await findChanges(active, tracked, request, start);
  for (let round = 0; active.rediscover !== undefined && round < maxRediscoveries; round += 1) {
    const rules = await active.rediscover(foldersWithGit(changes.state), active.rules);
    if (rules === undefined) break;
    active = { ...active, rules };
    tracked.needsFullScan = true;
    const source = { kind: 'memory', state: changes.state } as const;
    changes = await findChanges(active, tracked, request, { source, head: start.head, dirty: [] });
  }
  return { engine: active, changes };
}
