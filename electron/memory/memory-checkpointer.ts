import type { CheckpointOutcome, CheckpointRequest } from '../checkpoints/checkpoint-types';

/**
 * The part of the checkpoint engine the memory store uses (memory directories are checkpointed
 * directories); the checkpoint service satisfies it.
 */
export interface MemoryCheckpointer {
  checkpoint(dir: string, request: CheckpointRequest): Promise<CheckpointOutcome>;
  /** Tells the engine which files Vigil just wrote, so the next snapshot looks at them. */
  noteWritten(paths: readonly string[]): void;
}
