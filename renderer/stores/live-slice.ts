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
          // Events sent while the link was down are lost: reload what the screens show.
          if (connection.kind === 'connected') void get().loadMemory();
        }),
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
