import type { StateCreator } from 'zustand';
import type { ConfigState } from '../../shared/contract/config-contract';
import type { VigilClient } from '../api/vigil-client';
import type { AppState } from './app-store';

/** config.json as the core applies it: the settings in force, and the field at fault after an invalid edit. */
export interface ConfigSlice {
  readonly config: ConfigState | undefined;
  readonly loadConfig: () => Promise<void>;
  /** A `config:changed` event: the new settings (the memory folders read again), or the problem of an invalid edit (said once, in a toast). */
  readonly receiveConfig: (state: ConfigState) => void;
}

/** The config slice, bound to a client. */
export function createConfigSlice(client: VigilClient): StateCreator<AppState, [], [], ConfigSlice> {
  return (set, get) => ({
    config: undefined,

    loadConfig: async () => {
      const result = await client.call('config:read', {});
      if (result.ok) set({ config: result.value });
    },

    receiveConfig: (state) => {
      const before = get().config?.problem;
      set({ config: state });
      const problem = state.problem;
      // A valid edit may have added or removed memory folders or changed their limits: what the memory screen shows is read again.
      if (problem === null && get().memoryLoad.kind !== 'idle') void get().loadMemory();
      if (problem !== null && (before?.field !== problem.field || before.message !== problem.message)) {
        get().notify({ tone: 'warning', title: `config.json is invalid at ${problem.field}`, detail: problem.message });
      } else if (problem === null && before !== null && before !== undefined) {
        get().notify({
          tone: 'success',
          title: 'config.json is valid again',
          detail: `It is in force: ${state.checkpoints.maxSnapshots} checkpoints kept per folder.`,
        });
      }
    },
  });
}
