import type { StateCreator } from 'zustand';
import type { CallResponse } from '../../shared/contract';
import type { TurnBrief } from '../../shared/contract/sessions-contract';
import type { Result } from '../../shared/result';
import type { VigilClient } from '../api/vigil-client';
import type { ChangeCounts } from '../model/row-words';
import type { TimelineEntry } from '../model/timeline-filter';
import type { AppState } from './app-store';
import type { SliceContext } from './slice-context';

/** The key of one turn of one session in `turnBriefs`. */
export function turnKey(sessionId: string, turn: number): string {
  return `${sessionId}\u0000${turn}`;
}

/** The changes after the newest checkpoint of the open timeline, in the live folder, as last compared. */
export interface LiveChanges {
  readonly dir: string;
  readonly head: string;
  readonly counts: ChangeCounts | undefined;
  /** `current`: compared since the last change; `stale`: the folder changed or the core cannot be asked, so the counts are not current. */
  readonly state: 'comparing' | 'current' | 'stale';
}

/** The words of the timeline's rows: what each turn was about, and the newest checkpoint's changes in the live folder. */
export interface TimelineWordsSlice {
  readonly turnBriefs: ReadonlyMap<string, TurnBrief>;
  readonly liveChanges: LiveChanges | undefined;
  /** Asks for the briefs of the entries' turns not asked for yet (batched). */
  readonly requestTurnBriefs: (entries: readonly TimelineEntry[]) => void;
  /** A call of a turn finished: its brief (its calls, its title) is asked for again. */
  readonly noteTurnActivity: (sessionId: string, turn: number) => void;
  /** Compares the newest checkpoint of `dir` with the live folder, for its row's stats. */
  readonly loadLiveChanges: (dir: string, head: string) => Promise<void>;
  /** The live folder changed (or the link dropped): the newest row's counts are not current until compared again. */
  readonly markLiveChangesStale: (dir: string | undefined) => void;
  /** Files changed in a watched folder: the newest row's counts are stale, and compared again once the burst settles. */
  readonly receiveFolderChange: (dir: string) => void;
}

/** How long a burst of writes may go on before the live folder is compared again. */
const settleMs = 400;

/** Turns asked for in one call at most (the contract's cap). */
const briefBatch = 2_000;
/** The most files the live comparison sums (beyond, the counts say "at least"). */
const maxLiveFiles = 20_000;

/** What the slice's actions share: the store, the client, the turns asked for, and the live comparison that is current. */
interface WordsContext extends SliceContext {
  /** Turns whose brief was asked for (or is about to be). */
  readonly asked: Set<string>;
  /** Turns waiting for the next call, by key. */
  readonly pending: Map<string, { sessionId: string; turn: number }>;
  flushing: Promise<void> | undefined;
  /** Bumped whenever the live folder is compared again: an older comparison's results are dropped. */
  liveGeneration: number;
  settleTimer: ReturnType<typeof setTimeout> | undefined;
}

/** Asks for the pending turns' briefs, a batch per call, until none is pending. */
async function flushBriefs({ client, set, asked, pending }: WordsContext): Promise<void> {
  while (pending.size > 0) {
    const batch = [...pending.values()].slice(0, briefBatch);
    for (const item of batch) pending.delete(turnKey(item.sessionId, item.turn));
    const result = await client.call('sessions:turns', { turns: batch });
    if (!result.ok) {
      // Asked again on the next load or call of those turns.
      for (const item of batch) asked.delete(turnKey(item.sessionId, item.turn));
      continue;
    }
    set((state) => {
      const briefs = new Map(state.turnBriefs);
      for (const brief of result.value.turns) briefs.set(turnKey(brief.sessionId, brief.turn), brief);
      return { turnBriefs: briefs };
    });
  }
}

/** Starts a flush unless one is running; one that ends with turns pending starts another. */
function scheduleBriefs(context: WordsContext): void {
  context.flushing ??= Promise.resolve()
    .then(() => flushBriefs(context))
    .finally(() => {
      context.flushing = undefined;
      if (context.pending.size > 0) scheduleBriefs(context);
    });
}

function requestTurnBriefs(context: WordsContext, entries: readonly TimelineEntry[]): void {
  const { asked, pending } = context;
  for (const entry of entries) {
    const { sessionId, turn } = entry.attribution;
    if (sessionId === undefined || turn === undefined || turn < 1) continue;
    const key = turnKey(sessionId, turn);
    if (asked.has(key)) continue;
    asked.add(key);
    pending.set(key, { sessionId, turn });
  }
  if (pending.size > 0) scheduleBriefs(context);
}

/** Compares the newest checkpoint with the live folder, page by page, summing the counts. */
async function loadLiveChanges(context: WordsContext, dir: string, head: string): Promise<void> {
  const { client, set, get } = context;
  context.liveGeneration += 1;
  const generation = context.liveGeneration;
  const known = get().liveChanges;
  set({
    liveChanges: {
      dir,
      head,
      counts: known?.dir === dir && known.head === head ? known.counts : undefined,
      state: 'comparing',
    },
  });
  const counts = { files: 0, insertions: 0, deletions: 0 };
  let offset: number | null = 0;
  while (offset !== null && offset < maxLiveFiles) {
    const result: Result<CallResponse<'checkpoints:diff'>> = await client.call('checkpoints:diff', {
      dir,
      checkpoint: head,
      against: { kind: 'live' },
      offset,
      limit: 2_000,
    });
    if (generation !== context.liveGeneration) return;
    if (!result.ok) {
      set((state) => ({
        liveChanges: state.liveChanges === undefined ? undefined : { ...state.liveChanges, state: 'stale' },
      }));
      return;
    }
    counts.files = result.value.totalFiles;
    for (const file of result.value.files) {
      counts.insertions += file.additions;
      counts.deletions += file.deletions;
    }
    offset = result.value.nextOffset;
  }
  set({ liveChanges: { dir, head, counts, state: 'current' } });
}

/** The timeline-words slice, bound to a client. */
export function createTimelineWordsSlice(client: VigilClient): StateCreator<AppState, [], [], TimelineWordsSlice> {
  return (set, get) => {
    const context: WordsContext = {
      client,
      set,
      get,
      asked: new Set(),
      pending: new Map(),
      flushing: undefined,
      liveGeneration: 0,
      settleTimer: undefined,
    };
    return {
      turnBriefs: new Map(),
      liveChanges: undefined,

      requestTurnBriefs: (entries) => requestTurnBriefs(context, entries),

      noteTurnActivity: (sessionId, turn) => {
        const key = turnKey(sessionId, turn);
        if (!context.asked.has(key) || turn < 1) return;
        context.pending.set(key, { sessionId, turn });
        scheduleBriefs(context);
      },

      loadLiveChanges: (dir, head) => loadLiveChanges(context, dir, head),

      receiveFolderChange: (dir) => {
        const live = get().liveChanges;
        if (live?.dir !== dir) return;
        get().markLiveChangesStale(dir);
        clearTimeout(context.settleTimer);
        context.settleTimer = setTimeout(() => {
          const current = get().liveChanges;
          if (current?.dir === dir) void get().loadLiveChanges(dir, current.head);
        }, settleMs);
      },

      markLiveChangesStale: (dir) => {
        const live = get().liveChanges;
        if (live !== undefined && (dir === undefined || live.dir === dir) && live.state !== 'stale')
          set({ liveChanges: { ...live, state: 'stale' } });
      },
    };
  };
}
