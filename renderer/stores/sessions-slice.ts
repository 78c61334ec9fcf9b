import type { StateCreator } from 'zustand';
import type { EventPayload } from '../../shared/contract';
import type { RewindMode, RewindPlan, SessionHistory, SessionSummary } from '../../shared/contract/sessions-contract';
import type { AppErrorData } from '../../shared/errors';
import type { VigilClient } from '../api/vigil-client';
import { failed, idle, loading, ready, type LoadState } from '../model/load-state';
import { extendLanes, type LaneMap } from '../model/session-lanes';
import { upsertSession } from '../model/session-list';
import type { AppState } from './app-store';
import { applyRewind, planRewind } from './rewind-steps';
import type { SliceContext } from './slice-context';

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
  /** Files others changed after the turn that the person chose to take back too (`directory\0path`); the rest stay theirs. */
  readonly overwrite?: ReadonlySet<string>;
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
  /** Plans a rewind; without `mode`, the session's starting mode (code only for an ended session, else both). */
  readonly planRewind: (sessionId: string, toTurn: number, mode?: RewindMode) => Promise<void>;
  readonly applyRewind: () => Promise<void>;
  readonly cancelRewind: () => void;
  /** Switches one of the others' files between "keep theirs" (the default) and "take it back too". */
  readonly toggleRewindOverwrite: (directory: string, path: string) => void;
  readonly receiveSession: (session: SessionSummary) => void;
  readonly receiveToolCall: (payload: EventPayload<'sessions:tool-called'>) => void;
  readonly receiveRewound: (payload: EventPayload<'sessions:rewound'>) => void;
  /** Adds sessions seen elsewhere (a timeline's attributions) to the lane map. */
  readonly noteSessions: (sessionIds: Iterable<string | undefined>) => void;
}

/** What the sessions slice's actions share: the store, the client, and the history read in flight. */
interface SessionsContext extends SliceContext {
  /** One history read at a time; events during a read ask for one more read after it. */
  reading: { readonly sessionId: string; isStale: boolean } | undefined;
}

/** Reads the open session's history into its transcript, once more if events came in during the read. */
async function readHistory(context: SessionsContext, sessionId: string): Promise<void> {
  const { client, set, get } = context;
  if (context.reading?.sessionId === sessionId) {
    context.reading.isStale = true;
    return;
  }
  const current = { sessionId, isStale: false };
  context.reading = current;
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
    if (context.reading === current) context.reading = undefined;
  }
}

/** Lists the sessions (the older ones too when asked), gives each a lane, and re-reads the open transcript. */
async function listSessions(context: SessionsContext, includeOlder: boolean): Promise<void> {
  const { client, set, get } = context;
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
  if (open !== undefined) void readHistory(context, open);
}

function refreshIfOpen(context: SessionsContext, sessionId: string): void {
  if (context.get().transcript?.sessionId === sessionId) void readHistory(context, sessionId);
}

/** The sessions slice, bound to a client. */
export function createSessionsSlice(client: VigilClient): StateCreator<AppState, [], [], SessionsSlice> {
  return (set, get) => {
    const context: SessionsContext = { client, set, get, reading: undefined };
    return {
      sessions: [],
      olderSessionCount: 0,
      sessionsLoad: idle,
      sessionLanes: new Map(),
      transcript: undefined,
      rewind: undefined,

      loadSessions: () => listSessions(context, false),

      loadOlderSessions: () => listSessions(context, true),

      openTranscript: async (sessionId) => {
        if (get().transcript?.sessionId !== sessionId)
          set({ transcript: { sessionId, load: loading, history: undefined }, rewind: undefined });
        await readHistory(context, sessionId);
      },

      closeTranscript: () => set({ transcript: undefined, rewind: undefined }),

      planRewind: (sessionId, toTurn, mode) => planRewind(context, sessionId, toTurn, mode),

      applyRewind: async () => {
        const rewound = await applyRewind(context);
        if (rewound !== undefined) await readHistory(context, rewound);
      },

      cancelRewind: () => {
        if (get().rewind?.phase !== 'applying') set({ rewind: undefined });
      },

      toggleRewindOverwrite: (directory, path) => {
        const flow = get().rewind;
        if (flow?.phase !== 'confirming') return;
        const key = `${directory}\0${path}`;
        const overwrite = new Set(flow.overwrite);
        if (!overwrite.delete(key)) overwrite.add(key);
        set({ rewind: { ...flow, overwrite } });
      },

      receiveSession: (session) => {
        set((state) => ({
          sessions: upsertSession(state.sessions, session),
          sessionLanes: extendLanes(state.sessionLanes, [session.id]),
        }));
        refreshIfOpen(context, session.id);
      },

      receiveToolCall: (payload) => refreshIfOpen(context, payload.sessionId),

      receiveRewound: (payload) => refreshIfOpen(context, payload.sessionId),

      noteSessions: (sessionIds) => {
        const lanes = get().sessionLanes;
        const next = extendLanes(lanes, sessionIds);
        if (next !== lanes) set({ sessionLanes: next });
      },
    };
  };
}
