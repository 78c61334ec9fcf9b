import type { EventHub } from '../core/event-hub';
import type { Logger } from '../logging/logger';
import type {
  CheckpointDirectory,
  CheckpointEntry,
  CheckpointOutcome,
  CheckpointRequest,
  ListOptions,
  PruneReport,
  RetentionPolicy,
  StoreStatus,
  StoredTreeEntry,
} from './checkpoint-types';

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
  readonly retention?: Partial<RetentionPolicy>;
  /** Files larger than this are skipped and recorded (default 10 MB). */
  readonly maxFileBytes?: number;
  /** Directories that may not be checkpointed themselves (default: the home directory; roots always). */
  readonly refusedDirs?: readonly string[];
  /** Hashing worker threads for big snapshots (default: cores − 1, at least 1, at most 4). */
  readonly workers?: number;
  /** From this many files to hash on, the workers do it (default 2,000). */
  readonly workerThreshold?: number;
}

/** The public face of the checkpoint engine; see the API note at the top of this file. */
export interface CheckpointApi {
  /** The bare git directory of the store. */
  readonly gitdir: string;
  checkpoint(dir: string, request: CheckpointRequest): Promise<CheckpointOutcome>;
  list(dir: string, options?: ListOptions): Promise<readonly CheckpointEntry[]>;
  count(dir: string, options?: Pick<ListOptions, 'source'>): Promise<number>;
  resolve(dir: string, ref: string): Promise<CheckpointEntry>;
  directories(): Promise<readonly CheckpointDirectory[]>;
  status(dir?: string): Promise<StoreStatus>;
  prune(): Promise<PruneReport>;
  readTree(treeOid: string): Promise<readonly StoredTreeEntry[]>;
  readBlob(oid: string): Promise<Uint8Array>;
  noteWritten(paths: readonly string[]): void;
  isExcluded(dir: string, relativePath: string): boolean;
  withStoreLock<T>(fn: () => Promise<T>): Promise<T>;
  dispose(): Promise<void>;
}
