/**
 * API note (for the diff/restore code and the executor):
 *
 * - `checkpoint(dir, { reason, attribution, kind, restores, paths })` → `{ kind: 'created', checkpoint }`
 *   or `{ kind: 'unchanged', head }`. `kind: 'pre-rollback'` (with `restores: <full id>`) always
 *   creates a commit; `preRollbackReason(id)` (checkpoint-reasons.ts) gives its subject. `paths` =
 *   files about to change (re-checked on disk even without a watcher event). Rejects only with
 *   AppErrors; a failed checkpoint changes nothing in the store.
 * - `list(dir, { limit, offset })` newest first; `count(dir)`; `resolve(dir, ref)` turns a user's
 *   `N` (1 = newest) or hex id/prefix into an entry, with the CLI's error messages ("use 1–N", …).
 * - `readTree(treeOid)`, `readBlob(oid)`: read the store (loose and packed objects, deltas too).
 * - `noteWritten(absPaths, actor?)`: call after every write/delete Vigil makes (restores too); the
 *   engine adds them to its dirty set, and the one writes listener (`writesListener`, behind `recordingWrites`) records the actor in the write ledger.
 * - `isExcluded(dir, relativePath)`: the exclusion rules (a restore never touches such paths).
 * - `withStoreLock(fn)`: one writer per store; re-entrant, so `checkpoint()` inside it is fine.
 * - `duringRestore(id, task)`: wraps a restore of checkpoint `id`: no retention cut drops `id`
 *   and this process's background maintenance (prune, pack, garbage collection) waits meanwhile.
 * - `maxFileBytes`, `retention`: the size cap (bigger files are skipped) and the retention policy.
 * - The stat cache (`stat/<dirhash>`, stat-cache.ts) may be read by others; `loadStatCache` and
 *   `racyWindowNs` give its records and git's racy rule.
 * - Pruning cuts old history with git's `shallow` file instead of rewriting commits, so a
 *   checkpoint id stays valid for as long as the checkpoint is kept. The oldest kept entry has no
 *   `parent`.
 */
import type { Actor, PlainActor } from '../../shared/contract/actor-model';
import type { EventHub } from '../lib';
import type { Logger } from '../logging';
import type { KnownHashes } from './snapshot/known-hashes';
import type {
  CheckpointDirectory,
  CheckpointEntry,
  CheckpointOutcome,
  CheckpointRequest,
  DroppedList,
  ListOptions,
  PruneReport,
  RetentionPolicy,
  StoreStatus,
  StoredTreeEntry,
  TimelineLookup,
} from './checkpoint-types';
import type { QuietTiming } from './maintenance/quiet-timer';
import type { WalkHeadStart } from './snapshot/walk-head-start';
import type { LoadedRules, RulesEnvironment } from './snapshot/repo-rules';
import type { FoundRepositories } from './snapshot/nested-repositories';

/** What the composition root passes to the checkpoint service. */
export interface CheckpointServiceOptions {
  /** `$VIGIL_HOME/checkpoints`: the store, the registry and the stat caches live under it. */
  readonly root: string;
  readonly logger: Logger;
  /** Where `checkpoints:created` goes; omitted in one-shot CLI processes. */
  readonly events?: Pick<EventHub, 'emit'>;
  /**
   * Watch checkpointed directories while this process runs (the app, `vigil serve`), so a
   * snapshot only looks at what changed. Off in one-shot processes, which walk the tree instead.
   */
  readonly watch?: boolean;
  /** Pack loose objects and collect garbage in the background (default: same as `watch`). */
  readonly maintenance?: boolean;
  /** How often a watching process compares each watched directory with the disk (default 10 min; 0: never). */
  readonly verifyEveryMs?: number;
  /** How long a watching process waits after the last snapshot before it saves (and compacts) the stat caches (default 15 s). */
  readonly statCacheQuietMs?: number;
  /** How long background store maintenance waits for quiet (no checkpoint or restore), and at most (default 5 s, 60 s). */
  readonly maintenanceTiming?: QuietTiming;
  readonly retention?: Partial<RetentionPolicy>;
  /** Files larger than this are skipped and recorded (default 50 MiB). */
  readonly maxFileBytes?: number;
  /** Where git's user settings are read from (the global excludes file); default: this process's environment. */
  readonly rulesEnvironment?: RulesEnvironment;
  /** Directories that may not be checkpointed themselves (default: the home directory; roots always). */
  readonly refusedDirs?: readonly string[];
  /** Hashing worker threads for big snapshots (default: cores − 1, at least 1, at most 4). */
  readonly workers?: number;
  /** From this many files to hash on, the workers do it (default 2,000). */
  readonly workerThreshold?: number;
  /** Told which store files were just made durable (a pre-rollback snapshot's objects and ref): diagnostics and tests. */
  readonly onSynced?: (files: readonly string[]) => void;
  /** Told when a watched directory's files changed (a live comparison is then out of date). */
  readonly onDirectoryChanged?: (dir: string) => void;
  /** One-shot: a walk of the directory to checkpoint begun before the engine was built (`vigil checkpoint DIR`), adopted if it fits. */
  readonly headStart?: WalkHeadStart;
}

/** The public face of the checkpoint engine; see the API note above. */
export interface CheckpointApi {
  /** The bare git directory of the store. */
  readonly gitdir: string;
  checkpoint(dir: string, request: CheckpointRequest): Promise<CheckpointOutcome>;
  list(dir: string, options?: ListOptions): Promise<readonly CheckpointEntry[]>;
  count(dir: string, options?: Pick<ListOptions, 'source' | 'isResolved'>): Promise<number>;
  resolve(dir: string, ref: string, options?: TimelineLookup): Promise<CheckpointEntry>;
  /** The recently dropped checkpoints of `dir` (d1 = newest; `resolve(dir, 'd1')` takes them), expired ones marked. */
  dropped(dir: string): Promise<DroppedList>;
  directories(): Promise<readonly CheckpointDirectory[]>;
  status(dir?: string): Promise<StoreStatus>;
  /** Applies retention now; `actor` (the app or the CLI) is named in the cuts it records. */
  prune(actor?: PlainActor): Promise<PruneReport>;
  readTree(treeOid: string): Promise<readonly StoredTreeEntry[]>;
  readBlob(oid: string): Promise<Uint8Array>;
  noteWritten(paths: readonly string[], actor?: Actor): void;
  /** The blob ids this process holds in memory for a directory's unchanged files (its stat cache), if it holds any. */
  knownHashes(dir: string): KnownHashes | undefined;
  isExcluded(dir: string, relativePath: string): boolean;
  /**
   * The rules a snapshot of `dir` stores by now (tracked files, ignore rules, built-in names), with any problem
   * reading them; with `found` (the folders holding a `.git` that a walk of all of `dir` met, or a look at part
   * of it, see `FoundRepositories`), rebuilt first when those differ from the ones the rules know, as a
   * snapshot's walk does.
   */
  storeRules(dir: string, found?: FoundRepositories): Promise<LoadedRules>;
  withStoreLock<T>(fn: () => Promise<T>): Promise<T>;
  /** Runs a restore of `checkpointId`: retention keeps that checkpoint and maintenance waits until it ends. */
  duringRestore<T>(checkpointId: string, task: () => Promise<T>): Promise<T>;
  dispose(): Promise<void>;
}
