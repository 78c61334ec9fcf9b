import type { StateCreator } from 'zustand';
import type { VigilClient } from '../api/vigil-client';
import type { DroppedCheckpointData } from '../../shared/contract/checkpoints-live-contract';
import type { AppErrorData } from '../../shared/errors';
import type { AppState } from './app-store';

/** A directory's recently dropped checkpoints, as the timeline's "Recently dropped" section shows them. */
export interface DroppedState {
  readonly dir: string;
  readonly entries: readonly DroppedCheckpointData[];
  readonly keepDroppedDays: number | undefined;
  /** Why they could not be listed (shown in the section, with a retry). */
  readonly error: AppErrorData | undefined;
}

/** The recently dropped area of the open timeline's directory. */
export interface DroppedSlice {
  readonly dropped: DroppedState | undefined;
  /** Lists `dir`'s recently dropped checkpoints (on opening its timeline, after a cut). */
  readonly loadDropped: (dir: string) => Promise<void>;
}

/** The dropped slice, bound to a client. */
export function createDroppedSlice(client: VigilClient): StateCreator<AppState, [], [], DroppedSlice> {
  return (set, get) => ({
    dropped: undefined,
    loadDropped: async (dir) => {
      const result = await client.call('checkpoints:dropped', { dir });
      // Another folder was opened meanwhile: its own load answers for it.
      const openDir = get().timeline?.dir;
      if (openDir !== undefined && openDir !== dir) return;
      const previous = get().dropped;
      set({
        dropped: result.ok
          ? { dir, entries: result.value.entries, keepDroppedDays: result.value.keepDroppedDays, error: undefined }
          : {
              dir,
              entries: previous?.dir === dir ? previous.entries : [],
              keepDroppedDays: previous?.keepDroppedDays,
              error: result.error,
            },
      });
    },
  });
}
