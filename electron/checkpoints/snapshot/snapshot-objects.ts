import { binaryBlob, type KnownBlobs } from './checkpoint-stats';
import type { DirState } from './dir-state';
import { FolderCompactor } from './folder-compactor';
import { FileHasher, type HashResult, type ObjectSink } from './file-hasher';
import { PackWriter } from '../../git-store';
import { isRacy } from './folder-listing';
import { statCacheCodes } from './stat-cache-format';
import type { HashCandidate } from './stat-walk';
import type { SnapshotEngine } from './snapshot-engine';
import type { TrackedDirectory } from './tracked-directory';

// How a snapshot writes what it found: the changed files' blobs, then the trees on their paths.

/** Above this many objects a batch goes into one pack instead of loose files (below it, parallel loose writes are cheaper than a pack's fsyncs). */
const packThreshold = 512;
/**
 * The same for a snapshot that must be durable before it returns (a restore's pre-rollback
 * snapshot): each loose object then costs an fsync of its own and one of its fan-out folder, a
 * pack three fsyncs in all, so a pack pays off from a few objects on.
 */
const durablePackThreshold = 8;

/** What a snapshot learns of the blobs it hashes, kept while it is filled. */
interface KnownBeingFilled {
  blobs: Map<string, number>;
  changes: Map<string, { insertions: number; deletions: number }>;
  firstLines?: number;
}

/** Applies hash results to the state (and, for a big fresh state, puts complete folders into columns). */
function resultApplier(
  tracked: TrackedDirectory,
  state: DirState,
  candidates: readonly HashCandidate[],
  stampNs: bigint,
  options: { readonly isFirst: boolean; readonly isBig: boolean },
): { known: KnownBeingFilled; apply: (results: readonly HashResult[]) => void; compactor?: FolderCompactor } {
  const known: KnownBeingFilled = {
    blobs: new Map<string, number>(),
    changes: new Map<string, { insertions: number; deletions: number }>(),
  };
  // A big first state is built straight into columns (a state no snapshot committed yet: nothing compares its records by identity).
  const isFresh = state.head === undefined && state.fileCount === 0;
  const compactor = isFresh && options.isBig ? new FolderCompactor(state, candidates) : undefined;
  // A first checkpoint's stats only sum its files' lines: no map of 200,000 blob ids held until the commit.
  if (isFresh && options.isFirst) known.firstLines = 0;
  const apply = (results: readonly HashResult[]): void => {
    for (const result of results) {
      let isRacyRecord = false;
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
        isRacyRecord = ctimeNs !== -1n && isRacy(mtimeNs, stampNs);
        if (isRacyRecord) tracked.racy.set(rel, record);
        if (known.firstLines !== undefined) known.firstLines += result.binary ? 0 : result.lines;
        else known.blobs.set(oid, result.binary ? binaryBlob : result.lines);
      } else if (result.kind === 'skipped') {
        state.setSkipped(result.rel, result.reason, false);
      } else {
        state.remove(result.rel);
      }
      compactor?.applied(result.rel, isRacyRecord);
    }
  };
  return { known, apply, compactor };
}

/**
 * Hashes the candidates (inline for a few, in the workers for many) and applies the results to the
 * state, noting in `tracked.racy` the records racy for a scan that began at `stampNs`.
 */
export async function hashCandidates(
  engine: SnapshotEngine,
  tracked: TrackedDirectory,
  state: DirState,
  candidates: readonly HashCandidate[],
  stampNs: bigint,
  options: {
    readonly isDurable: boolean;
    /** The timeline has no checkpoint yet: the stats will count every file's lines. */
    readonly isFirst: boolean;
  },
): Promise<KnownBlobs> {
  const { isDurable } = options;
  const isPacked = candidates.length > (isDurable ? durablePackThreshold : packThreshold);
  // A durable batch smaller than a full walk's pack skips listing the loose objects (see ObjectSink).
  const sink: ObjectSink = !isPacked
    ? 'loose'
    : isDurable && candidates.length <= packThreshold
      ? 'quick-pack'
      : 'pack';
  const { known, apply, compactor } = resultApplier(tracked, state, candidates, stampNs, {
    isFirst: options.isFirst,
    isBig: candidates.length >= engine.workerThreshold,
  });
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
        engine.store.noteWrittenElsewhere(
          results.flatMap((result) =>
            result.kind === 'stored' && (sink === 'loose' || result.reusedLoose === true) ? [result.oid] : [],
          ),
        );
      },
      sink,
      // Told even when the write that made the folder failed: a later object may go into it (and its entry in objects/ with it).
      (fan) => engine.store.noteWrittenElsewhere([], [fan]),
    );
    compactor?.flush();
    await engine.store.refresh(true);
    return known;
  }
  const hasher = new FileHasher(engine.store, sink);
  await hasher.begin();
  try {
    const results = await hasher.hash({ root: tracked.dir, items: candidates, maxFileBytes: engine.maxFileBytes });
    apply(results);
    // An existing loose copy a pack left out may be a failed checkpoint's, never fsynced: this one fsyncs it.
    engine.store.noteWrittenElsewhere(
      results.flatMap((result) => (result.kind === 'stored' && result.reusedLoose === true ? [result.oid] : [])),
    );
    await hasher.finish();
    compactor?.flush();
  } catch (error) {
    await hasher.abort();
    throw error;
  }
  // A pack the hasher wrote is read in at once (its folder's mtime may not have moved); loose objects change no pack.
  await engine.store.refresh(sink !== 'loose');
  return known;
}

/** Above this many new trees they go into one pack (a first snapshot writes one per folder). */
const treePackThreshold = 128;

/** Builds the root tree, writing the new trees (loose, or one pack when many changed, or when they must be durable at once and are more than a few). */
export async function writeTrees(engine: SnapshotEngine, state: DirState, isDurable: boolean): Promise<string> {
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
