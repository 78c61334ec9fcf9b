import type { StateCreator } from 'zustand';
import type { EventPayload } from '../../shared/contract';
import type { FileVersionEntry, SearchHit } from '../../shared/contract/checkpoints-history-contract';
import type { VigilClient } from '../api/vigil-client';
import { failed, loading, ready, type LoadState } from '../model/load-state';
import type { AppState } from './app-store';

/** A file's history, as the panel shows it. */
export interface FileHistoryState {
  readonly dir: string;
  readonly path: string;
  readonly load: LoadState;
  readonly entries: readonly FileVersionEntry[];
  /** How many checkpoints were looked at. */
  readonly checkpoints: number;
}

/** The search of the past: where the count of a text in a file changed. */
export interface PastSearchState {
  readonly dir: string;
  readonly text: string;
  readonly load: LoadState;
  readonly hits: readonly SearchHit[];
  readonly checkpoints: number;
  readonly isTruncated: boolean;
}

/** A file's history, the search of the past, and checkpoint names. */
export interface HistorySlice {
  readonly fileHistory: FileHistoryState | undefined;
  readonly pastSearch: PastSearchState | undefined;
  /** Lists every checkpoint after which `path` changed, across sessions. */
  readonly openFileHistory: (dir: string, path: string) => Promise<void>;
  readonly closeFileHistory: () => void;
  /** Finds where the count of `text` in a file changed; an empty text closes the answer. */
  readonly searchPast: (dir: string, text: string) => Promise<void>;
  readonly closePastSearch: () => void;
  /** Names a checkpoint ("" takes its name away); says so when it could not. */
  readonly renameCheckpoint: (dir: string, id: string, name: string) => Promise<boolean>;
  /** A checkpoint was named or renamed (by this window or another). */
  readonly receiveRename: (rename: EventPayload<'checkpoints:renamed'>) => void;
}

/** The history slice, bound to a client. */
export function createHistorySlice(client: VigilClient): StateCreator<AppState, [], [], HistorySlice> {
  return (set, get) => {
    let historyGeneration = 0;
    let searchGeneration = 0;
    return {
      fileHistory: undefined,
      pastSearch: undefined,

      openFileHistory: async (dir, path) => {
        historyGeneration += 1;
        const generation = historyGeneration;
        set({ fileHistory: { dir, path, load: loading, entries: [], checkpoints: 0 } });
        const result = await client.call('checkpoints:file-log', { dir, path });
        if (generation !== historyGeneration) return;
        set({
          fileHistory: result.ok
            ? {
                dir,
                path: result.value.path,
                load: ready,
                entries: result.value.entries,
                checkpoints: result.value.checkpoints,
              }
            : { dir, path, load: failed(result.error), entries: [], checkpoints: 0 },
        });
      },

      closeFileHistory: () => {
        historyGeneration += 1;
        set({ fileHistory: undefined });
      },

      searchPast: async (dir, text) => {
        searchGeneration += 1;
        const generation = searchGeneration;
        if (text === '') {
          set({ pastSearch: undefined });
          return;
        }
        set({ pastSearch: { dir, text, load: loading, hits: [], checkpoints: 0, isTruncated: false } });
        const result = await client.call('checkpoints:search', { dir, text });
        if (generation !== searchGeneration) return;
        set({
          pastSearch: result.ok
            ? {
                dir,
                text,
                load: ready,
                hits: result.value.hits,
                checkpoints: result.value.checkpoints,
                isTruncated: result.value.isTruncated,
              }
            : { dir, text, load: failed(result.error), hits: [], checkpoints: 0, isTruncated: false },
        });
      },

      closePastSearch: () => {
        searchGeneration += 1;
        set({ pastSearch: undefined });
      },

      renameCheckpoint: async (dir, id, name) => {
        const result = await client.call('checkpoints:rename', { dir, checkpoint: id, name });
        if (!result.ok) {
          get().notify({ tone: 'error', title: 'Not renamed', detail: result.error.message });
          return false;
        }
        get().receiveRename({
          dir: result.value.dir,
          id: result.value.id,
          name: result.value.name,
        });
        return true;
      },

      receiveRename: ({ dir, id, name }) => {
        const timeline = get().timeline;
        if (timeline?.dir !== dir) return;
        const rename = <T extends { readonly id: string; readonly name?: string | undefined }>(entry: T): T => {
          if (entry.id !== id) return entry;
          const { name: _old, ...rest } = entry;
          return (name === undefined ? rest : { ...rest, name }) as T;
        };
        set({ timeline: { ...timeline, entries: timeline.entries.map(rename) } });
      },
    };
  };
}
