import { plural } from '../model/format';
import { failed, loading, ready } from '../model/load-state';
import { mergeEntries, noTimelineFilter, type TimelineEntry } from '../model/timeline-filter';
import type { SliceContext } from './slice-context';
import type { TimelineState } from './timeline-slice';

/** The first page is small so the timeline shows at once; the rest follows in big pages. */
const firstPageSize = 300;
const pageSize = 5000;
/** The most checkpoints one timeline loads (retention keeps far fewer by default). */
const maxLoaded = 50_000;
/** File-filter queries in flight at once. */
const fileFilterConcurrency = 8;

/** What the timeline slice's actions share: the store, the client, and which load and file filter are current. */
export interface TimelineContext extends SliceContext {
  /** Bumped whenever the timeline is (re)loaded: pages of an older load are dropped. */
  loadGeneration: number;
  /** Bumped whenever the file filter changes: answers for an older one are dropped. */
  filterGeneration: number;
}

function isCurrent(context: TimelineContext, dir: string, generation: number): boolean {
  return generation === context.loadGeneration && context.get().timeline?.dir === dir;
}

/** Loads the timeline page by page; `isFresh` replaces what is shown (after a cut) instead of adding to it. */
export async function loadPages(
  context: TimelineContext,
  dir: string,
  generation: number,
  isFresh = false,
): Promise<void> {
  const { client, set, get } = context;
  let offset = 0;
  let size = firstPageSize;
  for (;;) {
    const result = await client.call('checkpoints:list', { dir, limit: size, offset });
    if (!isCurrent(context, dir, generation)) return;
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
}

/** Opens a directory's timeline (or reloads the open one, keeping its filters and re-running the file filter). */
export async function openTimeline(context: TimelineContext, dir: string): Promise<void> {
  const { set, get } = context;
  context.loadGeneration += 1;
  const generation = context.loadGeneration;
  context.filterGeneration += 1;
  const isSame = get().timeline?.dir === dir;
  set({
    timeline: isSame
      ? { ...(get().timeline as TimelineState), load: loading }
      : { dir, entries: [], total: 0, load: loading, isComplete: false },
    ...(isSame ? {} : { timelineFilter: noTimelineFilter, fileFilter: undefined }),
  });
  await loadPages(context, dir, generation);
  const path = get().fileFilter?.path;
  if (isSame && path !== undefined) await get().filterByFile(path);
}

/** Asks, checkpoint by checkpoint with a few queries in flight, which checkpoints changed `path`; shows the answers as they come. */
export async function filterByFile(context: TimelineContext, path: string): Promise<void> {
  const { client, set, get } = context;
  context.filterGeneration += 1;
  const generation = context.filterGeneration;
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
      if (generation !== context.filterGeneration) return;
      const parent = entry.parent ?? '';
      const result = await client.call('checkpoints:diff', {
        dir: timeline.dir,
        checkpoint: parent,
        against: { kind: 'checkpoint', id: entry.id },
        paths: [trimmed],
        limit: 1,
      });
      if (generation !== context.filterGeneration) return;
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
  if (generation === context.filterGeneration)
    set({ fileFilter: { path: trimmed, matches: new Set(matches), checked, isDone: true } });
}

/** Takes a checkpoint of a directory now, by hand, and says what came of it in a toast. */
export async function checkpointNow({ client, get }: SliceContext, dir: string, name?: string): Promise<boolean> {
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
}

/** A timeline's count now: the picker follows, and the open timeline reloads when some of its checkpoints were dropped. */
export function receiveTimelineCount(context: TimelineContext, dir: string, total: number): void {
  const { set, get } = context;
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
    context.loadGeneration += 1;
    set({ timeline: { ...timeline, total } });
    void loadPages(context, dir, context.loadGeneration, true);
  } else set({ timeline: { ...timeline, total } });
}

/** A new checkpoint: added to the open timeline when it is its directory's, and counted in the picker. */
export function receiveCheckpoint({ set, get }: SliceContext, entry: TimelineEntry): void {
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
}
