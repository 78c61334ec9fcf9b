import type { StateCreator } from 'zustand';
import type { CallResponse } from '../../shared/contract';
import type { ConnectionState, VigilClient } from '../api/vigil-client';
import type { AppState } from './app-store';

/** What the UI knows about its link to the core. */
export interface ConnectionSlice {
  readonly connection: ConnectionState;
  readonly appInfo: CallResponse<'app:info'> | undefined;
  /** Follows the client's connection and loads the core's info on every (re)connect; returns the disposer. */
  readonly startConnection: () => () => void;
}

/** The connection slice, bound to a client. */
export function createConnectionSlice(client: VigilClient): StateCreator<AppState, [], [], ConnectionSlice> {
  return (set) => ({
    connection: client.connection(),
    appInfo: undefined,
    startConnection: () =>
      client.onConnectionChanged((connection) => {
        set({ connection });
        if (connection.kind !== 'connected') return;
        void client.call('app:info', {}).then((result) => {
          if (result.ok) set({ appInfo: result.value });
        });
      }),
  });
}
