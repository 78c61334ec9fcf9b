import type { StateCreator } from 'zustand';
import type { VigilClient } from '../api/vigil-client';
import type { AppState } from './app-store';

/** Keeps the store live: loads on every (re)connect, and routes each contract event to its slice. */
export interface LiveSlice {
  /** Subscribes to the connection and every event; returns the disposer. */
  readonly startLive: () => () => void;
}

/** The live slice, bound to a client. */
export function createLiveSlice(client: VigilClient): StateCreator<AppState, [], [], LiveSlice> {
  return (_set, get) => ({
    startLive: () => {
      const disposers = [
        client.onConnectionChanged((connection) => {
          if (connection.kind !== 'connected') {
            get().markComparisonUnreachable();
            get().markLiveChangesStale(undefined);
            return;
          }
          // Events sent while the link was down are lost: reload what the screens show.
          const state = get();
          void state.loadConfig();
          void state.loadSessions();
          void state.loadApprovals();
          void state.loadMemory();
          void state.loadCheckpointDirectories();
          const timeline = state.timeline;
          if (timeline !== undefined) void state.openTimeline(timeline.dir);
          if (state.detail !== undefined)
            void (state.detail.compare.kind === 'live' ? state.recomputeLiveComparison() : state.refreshDetail());
        }),
        client.onEvent('sessions:changed', ({ session }) => get().receiveSession(session)),
        client.onEvent('sessions:tool-called', (payload) => {
          get().receiveToolCall(payload);
          get().noteTurnActivity(payload.sessionId, payload.turn);
          const { result } = payload.call;
          if (payload.call.name === 'memory' && !result.ok && result.error.code === 'conflict')
            get().receiveMemoryRefusal(result.error.details);
        }),
        client.onEvent('sessions:rewound', (payload) => get().receiveRewound(payload)),
        client.onEvent('approvals:requested', (payload) => get().receiveApprovalRequested(payload)),
        client.onEvent('approvals:decided', (payload) => get().receiveApprovalDecided(payload)),
        client.onEvent('checkpoints:created', (entry) => get().receiveCheckpoint(entry)),
        client.onEvent('checkpoints:timeline-changed', (change) => get().receiveTimelineCount(change)),
        client.onEvent('checkpoints:cut', (cut) => get().receiveCut(cut)),
        client.onEvent('checkpoints:pin-changed', (pin) => get().receivePin(pin)),
        client.onEvent('checkpoints:renamed', (rename) => get().receiveRename(rename)),
        client.onEvent('checkpoints:live-changed', (change) => {
          get().receiveLiveChange(change);
          get().receiveFolderChange(change.dir);
        }),
        client.onEvent('config:changed', (state) => get().receiveConfig(state)),
        client.onEvent('checkpoints:restore-progressed', (progress) => get().receiveRestoreProgress(progress)),
        client.onEvent('memory:changed', (change) => get().receiveMemoryChange(change)),
        client.onEvent('app:problem-reported', (problem) => {
          get().notify({ tone: 'warning', title: `Problem in ${problem.source}`, detail: problem.message });
        }),
      ];
      return () => {
        for (const dispose of disposers) dispose();
      };
    },
  });
}
