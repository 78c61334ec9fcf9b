import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { CheckpointOutcome, CheckpointRequest, CheckpointStats } from '../checkpoint-types';
import { binaryBlob, checkpointStats, knownLines, type KnownBlobs } from './checkpoint-stats';
import {
  decodeCheckpointCommit,
  encodeCheckpointCommit,
  encodeSkippedList,
  maxSkippedTrailers,
} from '../timeline/commit-message';
import type { DirRegistry } from '../timeline/dir-registry';
import type { DirState } from './dir-state';
import { FileHasher, type HashResult, type ObjectSink } from './file-hasher';
import type { HashWorkerPool } from './hash-worker-pool';
import { countLines, isBinary } from './line-stats';
import type { ObjectStore } from '../store/object-store';
import { PackWriter } from '../store/pack-writer';
import type { RefStore } from '../store/ref-store';
import { isRacy, smudgeRacyRecords } from './folder-listing';
import { statCacheCodes } from './stat-cache-format';
import type { HashCandidate } from './stat-walk';
import type { StoreLayout } from '../store/store-layout';
import { toCheckpointEntry, type Timeline } from '../timeline/timeline';
import type { TrackedDirectory } from './tracked-directory';
import { findChanges, openDirState } from './snapshot-changes';
import type { StoreRules } from './store-rules';

/** Everything a snapshot needs from the service. */
export interface SnapshotEngine {
  readonly layout: StoreLayout;
  readonly store: ObjectStore;
  readonly refs: RefStore;
  readonly registry: DirRegistry;
  readonly timeline: Timeline;
  readonly pool: HashWorkerPool;
  readonly maxFileBytes: number;
  /** From this many files to hash on, worker threads do it (each into a pack). */
  readonly workerThreshold: number;
  readonly ignoredFolders: readonly string[];
  /** What this snapshot stores of the directory (its repository's tracked files and ignore rules, or Vigil's built-in names). */
  readonly rules: StoreRules;
  /** Fails unless this process still holds the store lock (checked right before the ref moves). */
  assertLockHeld(): Promise<void>;
}

/** Above this many objects a batch goes into one pack instead of loose files (below it, parallel loose writes are cheaper than a pack's fsyncs). */
const packThreshold = 512;
/**
 * The same for a snapshot that must be durable before it returns (a restore's pre-rollback
 * snapshot): each loose object then costs an fsync of its own and one of its fan-out folder, a
 * pack three fsyncs in all, so a pack pays off from a few objects on.
 */
const durablePackThreshold = 8;

function nowNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/**
 * Hashes the candidates (inline for a few, in the workers for many) and applies the results to the
 * state, noting in `tracked.racy` the records racy for a scan that began at `stampNs`.
 */
async function hashCandidates(
  engine: SnapshotEngine,
  tracked: TrackedDirectory,
  state: DirState,
  candidates: readonly HashCandidate[],
  stampNs: bigint,
  isDurable: boolean,
): Promise<KnownBlobs> {
  const isPacked = candidates.length > (isDurable ? durablePackThreshold : packThreshold);
  // A durable batch smaller than a full walk's pack skips listing the loose objects (see ObjectSink).
  const sink: ObjectSink = !isPacked
    ? 'loose'
    : isDurable && candidates.length <= packThreshold
      ? 'quick-pack'
      : 'pack';
  const known = {
    blobs: new Map<string, number>(),
    changes: new Map<string, { insertions: number; deletions: number }>(),
  };
  const apply = (results: readonly HashResult[]): void => {
    for (const result of results) {
      if (result.kind === 'stored') {
        const { rel, mode, oid, size, mtimeNs, ctimeNs, ino } = result;
        const previous = state.file(rel);
        if (previous !== undefined && result.changes !== undefined)
          known.changes.set(`${previous.oid}>${oid}`, result.changes);
        // The mode as the one constant string, not the copy each worker message brings (one per file otherwise).
        const record = {
          mode: statCacheCodes.modes.find((known) => known === mode) ?? mode,
          oid,
          size,
          mtimeNs,
          ctimeNs,
          ino,
        };
        state.setFile(rel, record);
        if (ctimeNs !== -1n && isRacy(mtimeNs, stampNs)) tracked.racy.set(rel, record);
        known.blobs.set(oid, result.binary ? binaryBlob : result.lines);
      } else if (result.kind === 'skipped') {
        state.setSkipped(result.rel, result.reason, false);
      } else {
        state.remove(result.rel);
      }
    }
  };
  if (candidates.length === 0) return known;
  // Worker threads read with blocking calls, no round trips: worth starting for a big batch, and
  // worth using for a middling one once they run.
  if (candidates.length >= engine.workerThreshold || (engine.pool.isRunning && candidates.length >= 32)) {
    await engine.pool.run(
      tracked.dir,
      candidates,
      engine.maxFileBytes,
      (results) => {
        apply(results);
        // Loose objects written by a worker are fsynced by this thread's store when a restore needs them durable.
        if (sink === 'loose')
          engine.store.noteWrittenElsewhere(
            results.flatMap((result) => (result.kind === 'stored' ? [result.oid] : [])),
          );
      },
      sink,
    );
    await engine.store.refresh(true);
    return known;
  }
  const hasher = new FileHasher(engine.store, sink);
  await hasher.begin();
  try {
    apply(await hasher.hash({ root: tracked.dir, items: candidates, maxFileBytes: engine.maxFileBytes }));
    await hasher.finish();
  } catch (error) {
    await hasher.abort();
    throw error;
  }
  await engine.store.refresh(true);
  return known;
}

/** Above this many new trees they go into one pack (a first snapshot writes one per folder). */
const treePackThreshold = 128;

/** Builds the root tree, writing the new trees (loose, or one pack when many changed, or when they must be durable at once and are more than a few). */
async function writeTrees(engine: SnapshotEngine, state: DirState, isDurable: boolean): Promise<string> {
  const dirtyFolders = [...state.folders()].filter(([, tree]) => tree === undefined).length;
  if (dirtyFolders <= (isDurable ? durablePackThreshold : treePackThreshold)) {
    return state.buildTree(async (content, oid, items) => {
      engine.store.rememberTree(oid, items);
      await engine.store.writeLoose('tree', content, oid);
    });
  }
  // Many trees: one listing of the loose objects answers every "stored already?" at once; a few: a check each is cheaper.
  // A durable batch of fewer trees than a full pack asks the packs only (a loose copy may be stored again, see ObjectSink).
  const isLooseSkipped = isDurable && dirtyFolders <= packThreshold;
  const isMany = dirtyFolders > treePackThreshold && !isLooseSkipped;
  if (isMany) await engine.store.preloadLoose();
  // A durable snapshot (a restore's, which the user waits for) stores its trees uncompressed: zlib costs ~50 µs
  // of this thread per tree (~10 ms for 200), its stored blocks ~5; the next collection compresses them.
  const pack = await PackWriter.create(engine.store.packDir, isDurable ? 0 : 1);
  try {
    // Claimed before any await: two folders with the same content share a tree id, which goes into the pack once.
    const claimed = new Set<string>();
    const tree = await state.buildTree(async (content, oid, items) => {
      engine.store.remember(oid, 'tree', content);
      engine.store.rememberTree(oid, items);
      if (claimed.has(oid)) return;
      claimed.add(oid);
      if (pack.has(oid) || engine.store.hasPacked(oid)) return;
      if (isLooseSkipped || !(await engine.store.has(oid))) await pack.add('tree', content, oid);
    });
    await pack.finish();
    await engine.store.refresh(true);
    return tree;
  } catch (error) {
    await pack.abort();
    throw error;
  } finally {
    if (isMany) engine.store.forgetLoose();
  }
}

/** Stats of a first checkpoint: every stored file is new. */
async function firstStats(engine: SnapshotEngine, state: DirState, known: KnownBlobs): Promise<CheckpointStats> {
  let files = 0;
  let insertions = 0;
  for (const [, record] of state.files()) {
    files += 1;
    if (files % 1_000 === 0) await yieldToLoop();
    const hit = knownLines(known, record.oid);
    if (hit !== undefined) insertions += hit;
    else {
      const content = await engine.store.readTyped(record.oid, 'blob');
      insertions += isBinary(content) ? 0 : countLines(content);
    }
  }
  return { files, insertions, deletions: 0 };
}

/** What a snapshot that changed something commits. */
interface SnapshotCommit {
  readonly state: DirState;
  readonly head: string | undefined;
  readonly headTree: string | undefined;
  readonly tree: string;
  readonly known: KnownBlobs;
  readonly kind: NonNullable<CheckpointRequest['kind']>;
  readonly isDurable: boolean;
  readonly isScoped: boolean;
  readonly requested: readonly string[];
}

/** Writes the checkpoint commit and moves the directory's ref to it, durably. */
async function commitSnapshot(
  engine: SnapshotEngine,
  tracked: TrackedDirectory,
  request: CheckpointRequest,
  snapshot: SnapshotCommit,
): Promise<CheckpointOutcome> {
  const { state, head, headTree, tree, known, kind } = snapshot;
  const stats =
    head === undefined
      ? await firstStats(engine, state, known)
      : await checkpointStats(engine.store, headTree, tree, known);
  const skipped = state.skippedPaths();
  // More skips than the trailers hold: the complete list goes into a blob the commit names.
  const skippedList =
    skipped.length > maxSkippedTrailers ? await engine.store.writeLoose('blob', encodeSkippedList(skipped)) : undefined;
  const content = encodeCheckpointCommit({
    tree,
    parent: head,
    time: Math.floor(Date.now() / 1000),
    reason: request.reason,
    attribution: request.attribution ?? {},
    kind,
    restores: request.restores,
    stats,
    skipped,
    skippedList,
    ...(snapshot.isScoped ? { scopedPaths: snapshot.requested.length } : {}),
  });
  const id = await engine.store.writeLoose('commit', content);
  // Every checkpoint is durable before it is acknowledged: its loose objects, their folders and the ref's move
  // survive a power cut, so the timeline lists it afterwards (the power-cut check in docs/reliability.md).
  await engine.store.syncWritten();
  await engine.assertLockHeld();
  await engine.refs.update(tracked.dirhash, id, head, `checkpoint: ${request.reason}`, { isDurable: true });
  state.head = id;
  tracked.isCacheStale = true;
  // The registry's lastTouch is refreshed at most every 30 s (listings also read the head's time).
  if (Date.now() - tracked.registryTouchedAt > 30_000) {
    await engine.registry.touch(tracked.dirhash, tracked.dir);
    tracked.registryTouchedAt = Date.now();
  }
  const entry = toCheckpointEntry(
    tracked.dir,
    { id, commit: decodeCheckpointCommit(content) },
    await engine.refs.readShallow(),
  );
  return { kind: 'created', checkpoint: entry };
}

/**
 * The paths a snapshot stored whatever the rules said (a restore point's) go back to the rules at
 * the next snapshot: each file, or the outermost folder on its way the rules leave out, is looked
 * at again as a change (a walk would judge it anyway).
 */
function rejudgeForced(rules: StoreRules, tracked: TrackedDirectory, forced: readonly string[]): void {
  for (const rel of forced) {
    const parts = rel.split('/');
    let folder = '';
    let target = rel;
    for (const part of parts.slice(0, -1)) {
      folder = folder === '' ? part : `${folder}/${part}`;
      if (rules.folderExclusion(folder, part) !== undefined) {
        target = folder;
        break;
      }
    }
    tracked.dirty.add(target);
  }
}

/** Tracked files below folders Vigil's built-in names leave out: a watcher does not watch them, so each snapshot looks at them. */
function unwatchedTracked(engine: SnapshotEngine, tracked: TrackedDirectory): string[] {
  return tracked.isWatched ? engine.rules.trackedInsideExcludedFolders() : [];
}

/** Whether a session's turn asks for its own checkpoint and the newest one is not its turn's (another session's or turn's, or none of a session). */
async function isOtherTurnsHead(
  engine: SnapshotEngine,
  head: string | undefined,
  request: CheckpointRequest,
): Promise<boolean> {
  const { sessionId, turn } = request.attribution ?? {};
  if (request.startsTurn !== true || sessionId === undefined || head === undefined) return false;
  const { attribution } = await engine.timeline.commit(head);
  return attribution.sessionId !== sessionId || attribution.turn !== turn;
}

/**
 * Takes one snapshot of a directory (the store lock is held by the caller): finds what changed
 * (only the dirty paths when they can be trusted, else a stat walk against the cache), hashes
 * just that, rebuilds just the trees on its path, and — unless nothing changed — commits and
 * moves the directory's ref. On failure the in-memory state is dropped, so the next snapshot
 * starts from a full walk; the store itself is untouched until the ref moves.
 */
export async function takeSnapshot(
  engine: SnapshotEngine,
  tracked: TrackedDirectory,
  request: CheckpointRequest,
): Promise<CheckpointOutcome> {
  const head = await engine.refs.read(tracked.dirhash);
  const dirty = [...tracked.takeDirty(), ...unwatchedTracked(engine, tracked)];
  // Used once, and only while the lock it walked under is still held by this very call's context.
  const headStart = tracked.headStart?.isHeldHere() === true ? tracked.headStart : undefined;
  tracked.headStart = undefined;
  try {
    const source = await openDirState(engine, tracked, headStart);
    // A head start's walk began earlier: its stamp is the scan's (an earlier stamp only makes more records racy).
    const scanStartNs = headStart?.stampNs ?? nowNs();
    const { state, headMoved, candidates, requested, isScoped, forced } = await findChanges(engine, tracked, request, {
      source,
      head,
      dirty,
      headStart,
    });
    const previousRacy = tracked.racy;
    tracked.racy = new Map();
    const kind = request.kind ?? 'checkpoint';
    // A restore overwrites files right after its pre-rollback snapshot: that snapshot's objects, then its ref, must survive a power cut first.
    const isDurable = kind === 'pre-rollback';
    const known = await hashCandidates(engine, tracked, state, candidates, scanStartNs, isDurable);
    const tree = await writeTrees(engine, state, isDurable);
    const headTree = head === undefined ? undefined : (await engine.timeline.commit(head)).tree;
    tracked.state = state;
    tracked.needsFullScan = tracked.needsFullScan && isScoped;
    tracked.isCacheStale = tracked.isCacheStale || candidates.length > 0 || headMoved;
    // The stamp moves on: records racy under the old one that this scan did not look at are marked for re-hashing.
    await smudgeRacyRecords(state, previousRacy);
    state.stampNs = scanStartNs;
    rejudgeForced(engine.rules, tracked, forced);
    if (tree === headTree && kind !== 'pre-rollback' && !(await isOtherTurnsHead(engine, head, request))) {
      state.head = head;
      return { kind: 'unchanged', head };
    }
    const snapshot = { state, head, headTree, tree, known, kind, isDurable, isScoped, requested };
    return await commitSnapshot(engine, tracked, request, snapshot);
  } catch (error) {
    tracked.state = undefined;
    tracked.needsFullScan = true;
    for (const rel of dirty) tracked.dirty.add(rel);
    throw error;
  }
}
