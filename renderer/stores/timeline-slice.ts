import type { StateCreator } from 'zustand';
import type { CallResponse, EventPayload } from '../../shared/contract';
import type { VigilClient } from '../api/vigil-client';
import { plural } from '../model/format';
import { failed, idle, loading, ready, type LoadState } from '../model/load-state';
import { mergeEntries, noTimelineFilter, type TimelineEntry, type TimelineFilter } from '../model/timeline-filter';
import type { AppState } from './app-store';

/** One supervised directory, as the contract carries it. */
export type CheckpointDirectory = CallResponse<'checkpoints:directories'>['directories'][number];

/** The first page is small so the timeline shows at once; the rest follows in big pages. */
const firstPageSize = 300;
const pageSize = 5000;
/** The most checkpoints one timeline loads (retention keeps far fewer by default). */
const maxLoaded = 50_000;
/** File-filter queries in flight at once. */
const fileFilterConcurrency = 8;

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
    let loadGeneration = 0;
    let filterGeneration = 0;

    const isCurrent = (dir: string, generation: number): boolean =>
      generation === loadGeneration && get().timeline?.dir === dir;

    /** Loads the timeline page by page; `isFresh` replaces what is shown (after a cut) instead of adding to it. */
    const loadPages = async (dir: string, generation: number, isFresh = false): Promise<void> => {
      let offset = 0;
      let size = firstPageSize;
      for (;;) {
        const result = await client.call('checkpoints:list', { dir, limit: size, offset });
        if (!isCurrent(dir, generation)) return;
        const current = get().timeline;
        if (current === undefined) return;
        if (!result.ok) {
          set({ timeline: { ...current, load: failed(result.error) } });
          return;
        }
        const entries =
          isFresh && offset === 0 ? result.value.entries : mergeEntries(current.entries, result.value.entries, 'older');
        offset += result.value.entries.length;
        const isComplete = result.value.entries.length < size || offset >= result.value.total || offset >= maxLoaded;
        set({
          timeline: { dir, entries, total: Math.max(result.value.total, entries.length), load: ready, isComplete },
        });
        get().noteSessions(result.value.entries.map((entry) => entry.attribution.sessionId));
        get().requestTurnBriefs(result.value.entries);
        const head = entries[0];
        if (offset === result.value.entries.length && head !== undefined) void get().loadLiveChanges(dir, head.id);
        if (isComplete) return;
        size = pageSize;
      }
    };

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
        loadGeneration += 1;
        const generation = loadGeneration;
        filterGeneration += 1;
        const isSame = get().timeline?.dir === dir;
        set({
          timeline: isSame
            ? { ...(get().timeline as TimelineState), load: loading }
            : { dir, entries: [], total: 0, load: loading, isComplete: false },
          ...(isSame ? {} : { timelineFilter: noTimelineFilter, fileFilter: undefined }),
        });
        await loadPages(dir, generation);
        const path = get().fileFilter?.path;
        if (isSame && path !== undefined) await get().filterByFile(path);
      },

      setTimelineFilter: (patch) => set((state) => ({ timelineFilter: { ...state.timelineFilter, ...patch } })),

      filterByFile: async (path) => {
        filterGeneration += 1;
        const generation = filterGeneration;
        const trimmed = path.trim().replace(/^\.?\/+/, '');
        const timeline = get().timeline;
        if (trimmed === '' || timeline === undefined) {
          set({ fileFilter: undefined });
          return;
        }
        // A checkpoint is taken before a turn's changes: it "changed" a path when the path differs from its parent.
        const queue = timeline.entries.filter((entry) => entry.parent !== undefined);
        const matches = new Set<string>();
        let checked = timeline.entries.length - queue.length;
        set({ fileFilter: { path: trimmed, matches, checked, isDone: queue.length === 0 } });
        const worker = async (): Promise<void> => {
          for (let entry = queue.shift(); entry !== undefined; entry = queue.shift()) {
            if (generation !== filterGeneration) return;
            const parent = entry.parent ?? '';
            const result = await client.call('checkpoints:diff', {
              dir: timeline.dir,
              checkpoint: parent,
              against: { kind: 'checkpoint', id: entry.id },
              paths: [trimmed],
              limit: 1,
            });
            if (generation !== filterGeneration) return;
            checked += 1;
            if (result.ok && result.value.totalFiles > 0) matches.add(entry.id);
            set({
              fileFilter: {
                path: trimmed,
                matches: new Set(matches),
                checked,
                isDone: queue.length === 0 && checked >= timeline.entries.length,
              },
            });
          }
        };
        await Promise.all(Array.from({ length: fileFilterConcurrency }, worker));
        if (generation === filterGeneration)
          set({ fileFilter: { path: trimmed, matches: new Set(matches), checked, isDone: true } });
      },

      checkpointNow: async (dir, name) => {
        // A name is the checkpoint's subject, as `vigil checkpoint DIR --reason` makes it.
        const reason = name?.trim() ?? '';
        const result = await client.call('checkpoints:create', {
          dir,
          reason: reason === '' ? 'manual checkpoint' : reason,
        });
        if (!result.ok) {
          get().notify({ tone: 'error', title: 'No checkpoint taken', detail: result.error.message });
          return false;
        }
        if (result.value.kind === 'created') {
          get().receiveCheckpoint(result.value.checkpoint);
          get().notify({
            tone: 'success',
            title: 'Checkpoint taken',
            detail: `${plural(result.value.checkpoint.stats.files, 'file')} changed since the previous one.`,
          });
        } else
          get().notify({
            tone: 'info',
            title: 'Nothing changed',
            detail: 'The directory matches its latest checkpoint, so none was taken.',
          });
        return true;
      },

      receiveTimelineCount: ({ dir, total }) => {
        const known = get().checkpointDirectories.some((directory) => directory.dir === dir);
        if (!known) void get().loadCheckpointDirectories();
        else
          set((state) => ({
            checkpointDirectories: state.checkpointDirectories.map((directory) =>
              directory.dir === dir ? { ...directory, count: total } : directory,
            ),
          }));
        const timeline = get().timeline;
        if (timeline?.dir !== dir) return;
        if (total < timeline.entries.length) {
          // Some were dropped: show the timeline as the store holds it now.
          loadGeneration += 1;
          set({ timeline: { ...timeline, total } });
          void loadPages(dir, loadGeneration, true);
        } else set({ timeline: { ...timeline, total } });
      },

      receiveCut: (cut) =>
        get().notify({ tone: 'warning', title: `${plural(cut.dropped, 'checkpoint')} dropped`, detail: cut.message }),

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

      receiveCheckpoint: (entry) => {
        get().noteSessions([entry.attribution.sessionId]);
        const timeline = get().timeline;
        if (timeline !== undefined && timeline.dir === entry.dir) {
          const entries = mergeEntries(timeline.entries, [entry], 'newer');
          if (entries !== timeline.entries) {
            set({ timeline: { ...timeline, entries, total: timeline.total + 1 } });
            get().requestTurnBriefs([entry]);
            if (entries[0]?.id === entry.id) void get().loadLiveChanges(entry.dir, entry.id);
          }
        }
        const known = get().checkpointDirectories.some((directory) => directory.dir === entry.dir);
        if (known) {
          set((state) => ({
            checkpointDirectories: state.checkpointDirectories.map((directory) =>
              directory.dir === entry.dir
                ? { ...directory, head: entry.id, count: directory.count + 1, lastTouch: entry.time }
                : directory,
            ),
          }));
        } else void get().loadCheckpointDirectories();
      },
    };
  };
}
