import type { StateCreator } from 'zustand';
import type { CallResponse } from '../../shared/contract';
import type { ConnectionState, VigilClient } from '../api/vigil-client';
import type { AppState } from './app-store';

/** What became of an address pasted to get back in: on success the page reloads or moves on. */
export type AddressOutcome = ReturnType<VigilClient['openAddress']>;

/** What the UI knows about its link to the core. */
export interface ConnectionSlice {
  readonly connection: ConnectionState;
  /** When the link was last lost (ISO), while it is down: what the screens show is as of then. */
  readonly lostAt: string | undefined;
  readonly appInfo: CallResponse<'app:info'> | undefined;
  /** Follows the client's connection and loads the core's info on every (re)connect; returns the disposer. */
  readonly startConnection: () => () => void;
  /** Gets back in with a pasted address (the URL `vigil serve` printed after a restart). */
  readonly openAddress: (text: string) => AddressOutcome;
}

/** The connection slice, bound to a client. */
export function createConnectionSlice(client: VigilClient): StateCreator<AppState, [], [], ConnectionSlice> {
  return (set, get) => ({
    connection: client.connection(),
    lostAt: undefined,
    appInfo: undefined,
    startConnection: () =>
      client.onConnectionChanged((connection) => {
        const wasUp = get().connection.kind === 'connected';
        set({
          connection,
          ...(connection.kind === 'connected'
            ? { lostAt: undefined }
            : wasUp || get().lostAt === undefined
              ? { lostAt: new Date().toISOString() }
              : {}),
        });
        if (connection.kind !== 'connected') return;
        void client.call('app:info', {}).then((result) => {
          if (result.ok) set({ appInfo: result.value });
          else get().notify({ tone: 'error', title: 'Could not read the app’s details', detail: result.error.message });
        });
      }),
    openAddress: (text) => client.openAddress(text),
  });
}
