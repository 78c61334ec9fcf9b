import type { Actor } from '../../shared/contract/actor-model';
import type { CheckpointEntry, CheckpointOutcome, CheckpointRequest, StoredTreeEntry } from '../checkpoints';

/**
 * The part of the checkpoint engine the memory store uses (memory directories are checkpointed
 * directories); the checkpoint service satisfies it.
 */
export interface MemoryCheckpointer {
  checkpoint(dir: string, request: CheckpointRequest): Promise<CheckpointOutcome>;
  /** Tells the engine which files Vigil just wrote (and the write ledger who wrote them), so the next snapshot looks at them. */
  noteWritten(paths: readonly string[], actor?: Actor): void;
  /** A checkpoint by id (to learn the tree of a directory's head). */
  resolve(dir: string, ref: string): Promise<CheckpointEntry>;
  /** A stored tree's entries (to check that a capture holds the version it was asked for). */
  readTree(treeOid: string): Promise<readonly StoredTreeEntry[]>;
  /** A stored blob (to check whether a version a capture missed lost any entry). */
  readBlob(oid: string): Promise<Uint8Array>;
}
