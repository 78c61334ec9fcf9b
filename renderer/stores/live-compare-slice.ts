import type { StateCreator } from 'zustand';
import type { EventPayload } from '../../shared/contract';
import type { AppState } from './app-store';

/** How long a comparison waits for a burst of writes to settle before it compares again. */
const settleMs = 300;

/** The open comparison that is out of date: the directory changed since it was computed, or it cannot be computed now. */
export interface StaleComparison {
  readonly dir: string;
  readonly checkpointId: string;
  /** `changed`: recomputing after a change; `unreachable`: the core cannot be asked (or the recompute failed). */
  readonly reason: 'changed' | 'unreachable';
}

/** Keeps "Compare with: Live directory" live: recomputed when files there change, marked stale while it cannot be. */
export interface LiveCompareSlice {
  readonly staleComparison: StaleComparison | undefined;
  /** A `checkpoints:live-changed` event. */
  readonly receiveLiveChange: (change: EventPayload<'checkpoints:live-changed'>) => void;
  /** The link to the core dropped: a live comparison cannot follow the directory until it is back. */
  readonly markComparisonUnreachable: () => void;
  /** Compares again now; the comparison is fresh when that succeeded and nothing changed meanwhile. */
  readonly recomputeLiveComparison: () => Promise<void>;
}

/** The live-comparison slice. */
export const createLiveCompareSlice: StateCreator<AppState, [], [], LiveCompareSlice> = (set, get) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let changes = 0;

  const liveDetail = (): { readonly dir: string; readonly checkpointId: string } | undefined => {
    const detail = get().detail;
    return detail !== undefined && detail.compare.kind === 'live'
      ? { dir: detail.dir, checkpointId: detail.checkpointId }
      : undefined;
  };

  const recompute = async (): Promise<void> => {
    const target = liveDetail();
    if (target === undefined) return;
    const seen = changes;
    await get().refreshDetail();
    const detail = get().detail;
    if (detail?.dir !== target.dir || detail.checkpointId !== target.checkpointId) return;
    if (detail.load.kind === 'failed') set({ staleComparison: { ...target, reason: 'unreachable' } });
    else if (seen === changes && detail.load.kind === 'ready') set({ staleComparison: undefined });
  };

  return {
    staleComparison: undefined,

    receiveLiveChange: (change) => {
      const target = liveDetail();
      if (target?.dir !== change.dir) return;
      changes += 1;
      set({ staleComparison: { ...target, reason: 'changed' } });
      clearTimeout(timer);
      timer = setTimeout(() => void recompute(), settleMs);
    },

    markComparisonUnreachable: () => {
      const target = liveDetail();
      if (target !== undefined) set({ staleComparison: { ...target, reason: 'unreachable' } });
    },

    recomputeLiveComparison: recompute,
  };
};
