import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { callNames } from '../shared/contract';
import { bridgeGlobalName, ipcCallChannel, ipcEventChannel, type VigilBridge } from '../shared/contract/bridge';
import type { Result } from '../shared/result';

const allowedCalls: ReadonlySet<string> = new Set(callNames);

/** The only API the renderer gets: contract calls by name, and contract events. No raw ipcRenderer. */
const bridge: VigilBridge = {
  call(channel, payload) {
    if (!allowedCalls.has(channel)) {
      const refused: Result<unknown> = {
        ok: false,
        error: { code: 'unknown_call', message: `"${channel}" is not a Vigil call.`, details: { channel } },
      };
      return Promise.resolve(refused);
    }
    return ipcRenderer.invoke(ipcCallChannel, { channel, payload }) as Promise<Result<unknown>>;
  },
  onEvent(listener) {
    const forward = (_event: IpcRendererEvent, message: { name: string; payload: unknown }): void => {
      listener(message.name, message.payload);
    };
    ipcRenderer.on(ipcEventChannel, forward);
    return () => {
      ipcRenderer.removeListener(ipcEventChannel, forward);
    };
  },
};

contextBridge.exposeInMainWorld(bridgeGlobalName, bridge);
