import type { StateCreator } from 'zustand';
import type { CallResponse, EventPayload } from '../../shared/contract';
import type { VigilClient } from '../api/vigil-client';
import { plural } from '../model/format';
import { failed, idle, loading, ready, type LoadState } from '../model/load-state';
import { noTimelineFilter, type TimelineEntry, type TimelineFilter } from '../model/timeline-filter';
import type { AppState } from './app-store';
import {
  checkpointNow,
  filterByFile,
  openTimeline,
  receiveCheckpoint,
  receiveTimelineCount,
  type TimelineContext,
} from './timeline-steps';

/** One supervised directory, as the contract carries it. */
export type CheckpointDirectory = CallResponse<'checkpoints:directories'>['directories'][number];

/** The timeline of the directory that is open. */
export interface TimelineState {
  readonly dir: string;
  readonly entries: readonly TimelineEntry[];
  readonly total: number;
  readonly load: LoadState;
  /** Every checkpoint of the timeline is loaded (or the cap was reached). */
  readonly isComplete: boolean;
}

/** "Which checkpoints changed this path": answered checkpoint by checkpoint, shown as the answers come. */
export interface FileFilterState {
  readonly path: string;
  readonly matches: ReadonlySet<string>;
  readonly checked: number;
  readonly isDone: boolean;
}

/** Every checkpointed directory; one directory's timeline from every session, live, filtered. */
export interface TimelineSlice {
  readonly checkpointDirectories: readonly CheckpointDirectory[];
  readonly directoriesLoad: LoadState;
  readonly timeline: TimelineState | undefined;
  readonly timelineFilter: TimelineFilter;
  readonly fileFilter: FileFilterState | undefined;
  readonly loadCheckpointDirectories: () => Promise<void>;
  readonly openTimeline: (dir: string) => Promise<void>;
  readonly setTimelineFilter: (patch: Partial<TimelineFilter>) => void;
  readonly filterByFile: (path: string) => Promise<void>;
  readonly receiveCheckpoint: (entry: TimelineEntry) => void;
  /** Takes a checkpoint of a directory now, by hand, named `name` when given; says so when nothing changed since the last one. */
  readonly checkpointNow: (dir: string, name?: string) => Promise<boolean>;
  /** A timeline's count now (after a checkpoint, a cut or a pin, by any process): the picker and the header agree with the store. */
  readonly receiveTimelineCount: (change: EventPayload<'checkpoints:timeline-changed'>) => void;
  /** Checkpoints were dropped: said in a toast (the count follows in `receiveTimelineCount`). */
  readonly receiveCut: (cut: EventPayload<'checkpoints:cut'>) => void;
  readonly receivePin: (pin: EventPayload<'checkpoints:pin-changed'>) => void;
  /** Pins a checkpoint (retention and the size cap keep it) or unpins it. */
  readonly pinCheckpoint: (dir: string, id: string, isPinned: boolean) => Promise<void>;
}

/** The timeline slice, bound to a client. */
export function createTimelineSlice(client: VigilClient): StateCreator<AppState, [], [], TimelineSlice> {
  return (set, get) => {
    const context: TimelineContext = { client, set, get, loadGeneration: 0, filterGeneration: 0 };
    return {
      checkpointDirectories: [],
      directoriesLoad: idle,
      timeline: undefined,
      timelineFilter: noTimelineFilter,
      fileFilter: undefined,

      loadCheckpointDirectories: async () => {
        if (get().checkpointDirectories.length === 0) set({ directoriesLoad: loading });
        const result = await client.call('checkpoints:directories', {});
        set(
          result.ok
            ? { checkpointDirectories: result.value.directories, directoriesLoad: ready }
            : { directoriesLoad: failed(result.error) },
        );
      },

      openTimeline: async (dir) => {
        await Promise.all([openTimeline(context, dir), get().loadDropped(dir)]);
      },

      setTimelineFilter: (patch) => set((state) => ({ timelineFilter: { ...state.timelineFilter, ...patch } })),

      filterByFile: (path) => filterByFile(context, path),

      checkpointNow: (dir, name) => checkpointNow(context, dir, name),

      receiveTimelineCount: ({ dir, total }) => receiveTimelineCount(context, dir, total),

      receiveCut: (cut) => {
        get().notify({
          tone: 'warning',
          title: `${plural(cut.dropped, 'checkpoint')} dropped`,
          detail: `${cut.message} The timeline lists them under "Recently dropped".`,
        });
        if (get().timeline?.dir === cut.dir) void get().loadDropped(cut.dir);
      },

      receivePin: ({ dir, id, isPinned }) => {
        const timeline = get().timeline;
        if (timeline?.dir !== dir) return;
        set({
          timeline: {
            ...timeline,
            entries: timeline.entries.map((entry) => (entry.id === id ? { ...entry, isPinned } : entry)),
          },
        });
      },

      pinCheckpoint: async (dir, id, isPinned) => {
        const result = await client.call('checkpoints:pin', { dir, checkpoint: id, isPinned });
        if (!result.ok) {
          get().notify({
            tone: 'error',
            title: isPinned ? 'Not pinned' : 'Not unpinned',
            detail: result.error.message,
          });
          return;
        }
        get().receivePin({ dir: result.value.dir, id: result.value.id, isPinned: result.value.isPinned });
      },

      receiveCheckpoint: (entry) => receiveCheckpoint(context, entry),
    };
  };
}
