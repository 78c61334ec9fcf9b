import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { CheckpointOutcome, CheckpointRequest, CheckpointStats } from '../checkpoint-types';
import { checkpointStats, knownLines, type KnownBlobs } from './checkpoint-stats';
import {
  decodeCheckpointCommit,
  encodeCheckpointCommit,
  encodeSkippedList,
  maxSkippedTrailers,
} from '../timeline/commit-message';
import type { DirState } from './dir-state';
import { countLines, isBinary } from './line-stats';
import { smudgeRacyRecords } from './folder-listing';
import { toCheckpointEntry } from '../timeline/timeline';
import type { TrackedDirectory } from './tracked-directory';
import { findChangesDiscovering, openDirState } from './snapshot-changes';
import type { StoreRules } from './store-rules';
import type { SnapshotEngine } from './snapshot-engine';
import { hashCandidates, writeTrees } from './snapshot-objects';
import { writingStore } from './store-write-error';

export type { SnapshotEngine } from './snapshot-engine';

/** How often a directory's registry record is refreshed while checkpoints keep coming. */
const registryTouchMs = 30_000;

function nowNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/** The store's own folder (`objects/`'s parent), as a failed write names it. */
function storeDirOf(engine: SnapshotEngine): string {
  return path.dirname(engine.store.objectsDir);
}

/** Stats of a first checkpoint: every stored file is new. */
async function firstStats(engine: SnapshotEngine, state: DirState, known: KnownBlobs): Promise<CheckpointStats> {
  // Every file of a fresh state was hashed by this snapshot, which summed their lines.
  if (known.firstLines !== undefined) return { files: state.fileCount, insertions: known.firstLines, deletions: 0 };
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

/**
 * Stats of a first checkpoint that follows a warmed snapshot: the warmed tree's, plus the lines
 * changed since (every file is still new to the timeline).
 */
async function statsSinceWarmed(
  engine: SnapshotEngine,
  state: DirState,
  warmed: NonNullable<TrackedDirectory['warmed']>,
  tree: string,
  known: KnownBlobs,
): Promise<CheckpointStats> {
  if (tree === warmed.tree) return warmed.stats;
  const since = await checkpointStats(engine.store, warmed.tree, tree, known);
  return {
    files: state.fileCount,
    insertions: warmed.stats.insertions + since.insertions - since.deletions,
    deletions: 0,
  };
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
}

/** Writes the checkpoint commit and moves the directory's ref to it, durably. */
async function commitSnapshot(
  engine: SnapshotEngine,
  tracked: TrackedDirectory,
  request: CheckpointRequest,
  snapshot: SnapshotCommit,
): Promise<CheckpointOutcome> {
  const { state, head, headTree, tree, known, kind } = snapshot;
  const { warmed } = tracked;
  const stats =
    head !== undefined
      ? await checkpointStats(engine.store, headTree, tree, known)
      : warmed !== undefined
        ? await statsSinceWarmed(engine, state, warmed, tree, known)
        : await firstStats(engine, state, known);
  const skipped = state.skippedPaths();
  // More skips than the trailers hold: the complete list goes into a blob the commit names.
  const storeDir = storeDirOf(engine);
  const skippedList =
    skipped.length > maxSkippedTrailers
      ? await writingStore(storeDir, () => engine.store.writeLoose('blob', encodeSkippedList(skipped)))
      : undefined;
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
  });
  const id = await writingStore(storeDir, () => engine.store.writeLoose('commit', content));
  // Every checkpoint is durable before it is acknowledged: its loose objects, their folders and the ref's move
  // survive a power cut, so the timeline lists it afterwards (the power-cut check in docs/reliability.md). The
  // objects' fsyncs, the lock's check and the retention cut's dropped ref run while the new ref is fsynced under a
  // temp name; it moves after all of them, and the cut lets go of what it drops only after that.
  try {
    await writingStore(storeDir, () =>
      engine.refs.update(tracked.dirhash, id, head, `checkpoint: ${request.reason}`, {
        isDurable: true,
        before: () => Promise.all([engine.store.syncWritten(), engine.assertLockHeld(), engine.cut?.stage(id)]),
        // `head` was read at the start of this snapshot under the same hold, which `assertLockHeld` checks was never lost.
        isExpectedHeld: true,
        ...(engine.deferSync !== undefined && { deferFolderSync: engine.deferSync }),
      }),
    );
  } catch (error) {
    await engine.cut?.discard();
    throw error;
  }
  state.head = id;
  tracked.warmed = undefined;
  tracked.isCacheStale = true;
  await engine.cut?.apply(id);
  // The registry's lastTouch is refreshed at most every 30 s (listings also read the head's time), by
  // this process (it remembers) and by one-shot ones (its record says when it was last touched).
  if (Date.now() - tracked.registryTouchedAt > registryTouchMs) {
    await engine.registry.touch(tracked.dirhash, tracked.dir, { unlessWithinMs: registryTouchMs });
    tracked.registryTouchedAt = Date.now();
  }
  const entry = toCheckpointEntry(
    tracked.dir,
    { id, commit: decodeCheckpointCommit(content) },
    await (engine.heldShallow?.() ?? engine.refs.readShallow()),
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
 * A warmed first snapshot is of use only while the timeline is still empty and its tree still
 * stored (a collection in another process knows nothing of it): else it is forgotten, and a state
 * built on it is walked again.
 */
async function forgetLostWarmUp(engine: SnapshotEngine, tracked: TrackedDirectory, head: string | undefined) {
  const { warmed } = tracked;
  if (warmed === undefined) return;
  if (head === undefined && (await engine.store.has(warmed.tree))) return;
  tracked.warmed = undefined;
  if (head === undefined) {
    tracked.state = undefined;
    tracked.needsFullScan = true;
  }
}

/**
 * Takes one snapshot of a directory (the store lock is held by the caller): finds what changed
 * (only the dirty paths when they can be trusted, else a stat walk against the cache), hashes
 * just that, rebuilds just the trees on its path, and — unless nothing changed — commits and
 * moves the directory's ref. On failure the in-memory state is dropped, so the next snapshot
 * starts from a full walk; the store itself is untouched until the ref moves.
 */
export async function takeSnapshot(
  given: SnapshotEngine,
  tracked: TrackedDirectory,
  request: CheckpointRequest,
  options: {
    /** Only a first snapshot ahead of need: objects written and the state kept, nothing committed (`CheckpointService.warmUp`). */
    readonly isWarmUp?: boolean;
  } = {},
): Promise<CheckpointOutcome> {
  const head = await given.refs.read(tracked.dirhash);
  await forgetLostWarmUp(given, tracked, head);
  const dirty = [...tracked.takeDirty(), ...unwatchedTracked(given, tracked)];
  // Used once, and only while the lock it walked under is still held by this very call's context.
  const headStart = tracked.headStart?.isHeldHere() === true ? tracked.headStart : undefined;
  tracked.headStart = undefined;
  try {
    const source = await openDirState(given, tracked, headStart);
    // A head start's walk began earlier: its stamp is the scan's (an earlier stamp only makes more records racy).
    const scanStartNs = headStart?.stampNs ?? nowNs();
    // The engine with the rules the changes were found by (rebuilt when the walk found other nested repositories).
    const { engine, changes } = await findChangesDiscovering(given, tracked, request, {
      source,
      head,
      dirty,
      headStart,
    });
    const { state, headMoved, candidates, forced } = changes;
    const previousRacy = tracked.racy;
    tracked.racy = new Map();
    const kind = request.kind ?? 'checkpoint';
    // A restore overwrites files right after its pre-rollback snapshot: that snapshot's objects, then its ref, must survive a power cut first.
    const isDurable = kind === 'pre-rollback';
    const known = await hashCandidates(engine, tracked, state, candidates, scanStartNs, {
      isDurable,
      isFirst: head === undefined,
    });
    const hashedAny = candidates.length > 0;
    // Let go now: a first snapshot of 200,000 files lists as many candidates, ~25 MiB kept through the trees and the commit otherwise.
    candidates.length = 0;
    const tree = await writingStore(storeDirOf(engine), () => writeTrees(engine, state, isDurable));
    const headTree = head === undefined ? undefined : (await engine.timeline.commit(head)).tree;
    tracked.state = state;
    tracked.needsFullScan = false;
    tracked.isCacheStale = tracked.isCacheStale || hashedAny || headMoved;
    // The stamp moves on: records racy under the old one that this scan did not look at are marked for re-hashing.
    await smudgeRacyRecords(state, previousRacy);
    state.stampNs = scanStartNs;
    rejudgeForced(engine.rules, tracked, forced);
    if (options.isWarmUp === true) {
      if (head === undefined) tracked.warmed = { tree, stats: await firstStats(engine, state, known) };
      state.head = head;
      return { kind: 'unchanged', head };
    }
    if (tree === headTree && kind !== 'pre-rollback' && !(await isOtherTurnsHead(engine, head, request))) {
      state.head = head;
      return { kind: 'unchanged', head };
    }
    const snapshot = { state, head, headTree, tree, known, kind, isDurable };
    return await commitSnapshot(engine, tracked, request, snapshot);
  } catch (error) {
    tracked.state = undefined;
    tracked.needsFullScan = true;
    for (const rel of dirty) tracked.dirty.add(rel);
    throw error;
  }
}
