import type { DirRegistry } from '../timeline/dir-registry';
import type { HashWorkerPool } from './hash-worker-pool';
import type { ObjectStore, RefStore, StoreLayout } from '../../git-store';
import type { Timeline } from '../timeline/timeline';
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
  /**
   * Takes the folders holding a `.git` that a walk by the rules `used` found: the rules in force with
   * their repositories' rules, when they differ from `used`, else undefined (default: none).
   */
  readonly rediscover?: (found: readonly string[], used: StoreRules) => Promise<StoreRules | undefined>;
  /** Fails unless this process still holds the store lock (checked right before the ref moves). */
  assertLockHeld(): Promise<void>;
  /**
   * The shallow list, read once per hold of the store lock (only a holder writes it, so what this
   * hold read stays true until it writes it itself); default: read from the store each time.
   */
  readonly heldShallow?: () => Promise<ReadonlySet<string>>;
  /**
   * Takes the fsync of the ref's folder once the ref has moved, for the caller to await before it answers
   * (see `DeferredSyncs`); default: the snapshot awaits it itself.
   */
  readonly deferSync?: (synced: Promise<void>) => void;
  /** The retention cut a new checkpoint calls for: staged while its objects are made durable, applied once its ref moved. */
  readonly cut?: {
    stage(next: string): Promise<void>;
    apply(next: string): Promise<void>;
    discard(): Promise<void>;
  };
}
