import type { StateCreator } from 'zustand';
import type { EventPayload } from '../../shared/contract';
import type {
  RewindMode,
  RewindOutcome,
  RewindPlan,
  SessionHistory,
  SessionSummary,
} from '../../shared/contract/sessions-contract';
import type { AppErrorData } from '../../shared/errors';
import type { VigilClient } from '../api/vigil-client';
import { failed, idle, loading, ready, type LoadState } from '../model/load-state';
import { extendLanes, type LaneMap } from '../model/session-lanes';
import { upsertSession } from '../model/session-list';
import type { AppState } from './app-store';

/** The transcript of the session that is open. */
export interface TranscriptState {
  readonly sessionId: string;
  readonly load: LoadState;
  readonly history: SessionHistory | undefined;
}

/** Turn undo: the plan of rewinding to a turn, then the rewind itself. */
export interface RewindFlow {
  readonly sessionId: string;
  readonly toTurn: number;
  readonly mode: RewindMode;
  readonly phase: 'planning' | 'confirming' | 'applying';
  readonly plan: RewindPlan | undefined;
  readonly error: AppErrorData | undefined;
}

/** Every session, live; the open transcript; and turn undo. */
export interface SessionsSlice {
  readonly sessions: readonly SessionSummary[];
  /** Sessions on disk the core has not listed yet (older than those shown). */
  readonly olderSessionCount: number;
  readonly sessionsLoad: LoadState;
  /** Each session's lane (its colour), kept for the life of the window, shared by every screen. */
  readonly sessionLanes: LaneMap;
  readonly transcript: TranscriptState | undefined;
  readonly rewind: RewindFlow | undefined;
  readonly loadSessions: () => Promise<void>;
  /** Lists the older sessions too. */
  readonly loadOlderSessions: () => Promise<void>;
  readonly openTranscript: (sessionId: string) => Promise<void>;
  readonly closeTranscript: () => void;
  readonly planRewind: (sessionId: string, toTurn: number, mode: RewindMode) => Promise<void>;
  readonly applyRewind: () => Promise<void>;
  readonly cancelRewind: () => void;
  readonly receiveSession: (session: SessionSummary) => void;
  readonly receiveToolCall: (payload: EventPayload<'sessions:tool-called'>) => void;
  readonly receiveRewound: (payload: EventPayload<'sessions:rewound'>) => void;
  /** Adds sessions seen elsewhere (a timeline's attributions) to the lane map. */
  readonly noteSessions: (sessionIds: Iterable<string | undefined>) => void;
}

function describeOutcome(outcome: RewindOutcome): string {
  const files = outcome.restored.reduce((sum, directory) => sum + directory.filesChanged, 0);
  const parts: string[] = [];
  if (outcome.rewoundTurns.length > 0)
    parts.push(`${outcome.rewoundTurns.length} turn${outcome.rewoundTurns.length === 1 ? '' : 's'} marked rewound`);
  if (outcome.restored.length > 0)
    parts.push(
      `${files} file${files === 1 ? '' : 's'} restored in ${outcome.restored.length} folder${outcome.restored.length === 1 ? '' : 's'}`,
    );
  return parts.length === 0 ? 'Nothing needed to change.' : `${parts.join(', ')}.`;
}

/** The sessions slice, bound to a client. */
export function createSessionsSlice(client: VigilClient): StateCreator<AppState, [], [], SessionsSlice> {
  return (set, get) => {
    // One history read at a time; events during a read ask for one more read after it.
    let reading: { sessionId: string; isStale: boolean } | undefined;

    const readHistory = async (sessionId: string): Promise<void> => {
      if (reading?.sessionId === sessionId) {
        reading.isStale = true;
        return;
      }
      const current = { sessionId, isStale: false };
      reading = current;
      try {
        for (;;) {
          const result = await client.call('sessions:history', { sessionId });
          if (get().transcript?.sessionId !== sessionId) return;
          set({
            transcript: result.ok
              ? { sessionId, load: ready, history: result.value }
              : { sessionId, load: failed(result.error), history: get().transcript?.history },
          });
          if (!current.isStale) return;
          current.isStale = false;
        }
      } finally {
        if (reading === current) reading = undefined;
      }
    };

    const listSessions = async (includeOlder: boolean): Promise<void> => {
      if (get().sessions.length === 0) set({ sessionsLoad: loading });
      const result = await client.call('sessions:list', includeOlder ? { includeOlder } : {});
      if (!result.ok) {
        set({ sessionsLoad: failed(result.error) });
        return;
      }
      let sessions: readonly SessionSummary[] = [];
      for (const session of result.value.sessions) sessions = upsertSession(sessions, session);
      set((state) => ({
        sessions,
        olderSessionCount: result.value.olderCount,
        sessionsLoad: ready,
        sessionLanes: extendLanes(
          state.sessionLanes,
          sessions.map((session) => session.id),
        ),
      }));
      const open = get().transcript?.sessionId;
      if (open !== undefined) void readHistory(open);
    };

    const refreshIfOpen = (sessionId: string): void => {
      if (get().transcript?.sessionId === sessionId) void readHistory(sessionId);
    };

    return {
      sessions: [],
      olderSessionCount: 0,
      sessionsLoad: idle,
      sessionLanes: new Map(),
      transcript: undefined,
      rewind: undefined,

      loadSessions: () => listSessions(false),

      loadOlderSessions: () => listSessions(true),

      openTranscript: async (sessionId) => {
        if (get().transcript?.sessionId !== sessionId)
          set({ transcript: { sessionId, load: loading, history: undefined }, rewind: undefined });
        await readHistory(sessionId);
      },

      closeTranscript: () => set({ transcript: undefined, rewind: undefined }),

      planRewind: async (sessionId, toTurn, mode) => {
        set({ rewind: { sessionId, toTurn, mode, phase: 'planning', plan: undefined, error: undefined } });
        const result = await client.call('sessions:plan-rewind', { sessionId, toTurn, mode });
        const flow = get().rewind;
        if (flow?.sessionId !== sessionId || flow.toTurn !== toTurn || flow.mode !== mode) return;
        set({
          rewind: result.ok
            ? { ...flow, phase: 'confirming', plan: result.value }
            : { ...flow, phase: 'confirming', error: result.error },
        });
      },

      applyRewind: async () => {
        const flow = get().rewind;
        if (flow?.phase !== 'confirming' || flow.plan === undefined) return;
        set({ rewind: { ...flow, phase: 'applying', error: undefined } });
        const result = await client.call('sessions:rewind', {
          sessionId: flow.sessionId,
          toTurn: flow.toTurn,
          mode: flow.mode,
          planId: flow.plan.planId,
        });
        if (!result.ok) {
          // A stale plan (conflict) is re-made so the user confirms what will really happen.
          set({ rewind: { ...flow, phase: 'confirming', error: result.error } });
          if (result.error.code === 'conflict') await get().planRewind(flow.sessionId, flow.toTurn, flow.mode);
          return;
        }
        set({ rewind: undefined });
        const undoable = result.value.restored.filter((directory) => directory.preRollbackCheckpointId !== undefined);
        get().notify({
          tone: 'success',
          title: `Rewound to the start of turn ${flow.toTurn}`,
          detail: describeOutcome(result.value),
          ...(undoable.length === 0
            ? {}
            : {
                action: {
                  label: 'Show restore point',
                  testId: 'toast-show-restore-point',
                  run: () => {
                    const first = undoable[0];
                    if (first?.preRollbackCheckpointId !== undefined) {
                      get().navigate({
                        screen: 'timeline',
                        dir: first.directory,
                        checkpointId: first.preRollbackCheckpointId,
                      });
                    }
                  },
                },
              }),
        });
        await readHistory(flow.sessionId);
      },

      cancelRewind: () => {
        if (get().rewind?.phase !== 'applying') set({ rewind: undefined });
      },

      receiveSession: (session) => {
        set((state) => ({
          sessions: upsertSession(state.sessions, session),
          sessionLanes: extendLanes(state.sessionLanes, [session.id]),
        }));
        refreshIfOpen(session.id);
      },

      receiveToolCall: (payload) => refreshIfOpen(payload.sessionId),

      receiveRewound: (payload) => refreshIfOpen(payload.sessionId),

      noteSessions: (sessionIds) => {
        const lanes = get().sessionLanes;
        const next = extendLanes(lanes, sessionIds);
        if (next !== lanes) set({ sessionLanes: next });
      },
    };
  };
}
