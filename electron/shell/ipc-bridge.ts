import { BrowserWindow, ipcMain } from 'electron';
import { ipcCallChannel, ipcEventChannel } from '../../shared/contract/bridge';
import { fail } from '../../shared/result';
import type { Disposer, EventHub } from '../lib';
import type { Logger } from '../logging';
import type { ContractRouter } from '../transport';
import { isTrustedSender } from './trusted-sender';

/** Relays the contract over IPC: calls in (sender checked, payload validated by the router), events out. */
export function registerIpcBridge(router: ContractRouter, events: EventHub, logger: Logger): Disposer {
  ipcMain.handle(ipcCallChannel, async (event, message: unknown) => {
    if (!isTrustedSender(event.senderFrame)) {
      logger.warn('refused an IPC call from an untrusted frame', { url: event.senderFrame?.url });
      return fail({ code: 'unauthorized', message: 'IPC from an untrusted frame was refused.' });
    }
    if (
      typeof message !== 'object' ||
      message === null ||
      typeof (message as { channel?: unknown }).channel !== 'string'
    ) {
      return fail({ code: 'invalid_request', message: 'An IPC call needs { channel, payload }.' });
    }
    const { channel, payload } = message as { channel: string; payload: unknown };
    return router.dispatch(channel, payload, { transport: 'ipc', clientId: String(event.sender.id), peer: 'window' });
  });
  const stopForwarding = events.onAny((name, payload) => {
    for (const window of BrowserWindow.getAllWindows()) {
      if (!window.isDestroyed() && isTrustedSender(window.webContents.mainFrame)) {
        window.webContents.send(ipcEventChannel, { name, payload });
      }
    }
  });
  return () => {
    ipcMain.removeHandler(ipcCallChannel);
    stopForwarding();
  };
}
