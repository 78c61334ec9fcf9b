import type { StateCreator } from 'zustand';
import type { EventPayload } from '../../shared/contract';
import type { FileVersionEntry, SearchHit } from '../../shared/contract/checkpoints-history-contract';
import type { VigilClient } from '../api/vigil-client';
import { failed, loading, ready, type LoadState } from '../model/load-state';
import type { AppState } from './app-store';
import type { SliceContext } from './slice-context';

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

/** What the slice's actions share: the store, the client, and which file history and search are current. */
interface HistoryContext extends SliceContext {
  /** Bumped whenever the file history opens or closes: an older answer is dropped. */
  historyGeneration: number;
  /** Bumped whenever the search changes or closes: an older answer is dropped. */
  searchGeneration: number;
}

async function openFileHistory(context: HistoryContext, dir: string, path: string): Promise<void> {
  const { client, set } = context;
  context.historyGeneration += 1;
  const generation = context.historyGeneration;
  set({ fileHistory: { dir, path, load: loading, entries: [], checkpoints: 0 } });
  const result = await client.call('checkpoints:file-log', { dir, path });
  if (generation !== context.historyGeneration) return;
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
}

async function searchPast(context: HistoryContext, dir: string, text: string): Promise<void> {
  const { client, set } = context;
  context.searchGeneration += 1;
  const generation = context.searchGeneration;
  if (text === '') {
    set({ pastSearch: undefined });
    return;
  }
  set({ pastSearch: { dir, text, load: loading, hits: [], checkpoints: 0, isTruncated: false } });
  const result = await client.call('checkpoints:search', { dir, text });
  if (generation !== context.searchGeneration) return;
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
}

/** The entry with its name changed (`undefined` takes it away) when it is checkpoint `id`; otherwise the entry as it is. */
function renamed<T extends { readonly id: string; readonly name?: string | undefined }>(
  entry: T,
  id: string,
  name: string | undefined,
): T {
  if (entry.id !== id) return entry;
  const { name: _old, ...rest } = entry;
  return (name === undefined ? rest : { ...rest, name }) as T;
}

/** The history slice, bound to a client. */
export function createHistorySlice(client: VigilClient): StateCreator<AppState, [], [], HistorySlice> {
  return (set, get) => {
    const context: HistoryContext = { client, set, get, historyGeneration: 0, searchGeneration: 0 };
    return {
      fileHistory: undefined,
      pastSearch: undefined,

      openFileHistory: (dir, path) => openFileHistory(context, dir, path),

      closeFileHistory: () => {
        context.historyGeneration += 1;
        set({ fileHistory: undefined });
      },

      searchPast: (dir, text) => searchPast(context, dir, text),

      closePastSearch: () => {
        context.searchGeneration += 1;
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
        set({ timeline: { ...timeline, entries: timeline.entries.map((entry) => renamed(entry, id, name)) } });
      },
    };
  };
}
