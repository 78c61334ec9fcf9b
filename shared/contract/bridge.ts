import type { Result } from '../result';

/** The name under which the Electron preload exposes the bridge on `window`. */
export const bridgeGlobalName = 'vigil';

/** The IPC channel that carries contract calls between the preload and the main process. */
export const ipcCallChannel = 'vigil:call';
/** The IPC channel that carries contract events from the main process to the preload. */
export const ipcEventChannel = 'vigil:event';

/** The narrow API the Electron preload exposes to the sandboxed renderer: contract calls and events only. */
export interface VigilBridge {
  call(channel: string, payload: unknown): Promise<Result<unknown>>;
  /** Subscribes to every contract event; returns the unsubscribe function. */
  onEvent(listener: (name: string, payload: unknown) => void): () => void;
}
