import type { CheckpointApi } from '../checkpoints/checkpoint-service';

/** The part of the checkpoint engine the memory store uses: memory directories are checkpointed directories. */
export type MemoryCheckpointer = Pick<CheckpointApi, 'checkpoint' | 'noteWritten'>;
