import type { CallName, CallRequest, CallResponse, EventName, EventPayload } from '../../shared/contract';
import { bridgeGlobalName, type VigilBridge } from '../../shared/contract/bridge';
import type { Result } from '../../shared/result';
import type { ConnectionState } from '../model/connection-state';
import { ClientBase } from './client-base';
import { followCredentialChanges, takePageCredential, type PastedAddressOutcome } from './page-credential';
import { connectWebSocket } from './websocket-client';

export type { ConnectionState } from '../model/connection-state';

/** The renderer's one API to the core; it does not say whether IPC or WebSocket carries it. */
export interface VigilClient {
  call<C extends CallName>(channel: C, request: CallRequest<C>): Promise<Result<CallResponse<C>>>;
  onEvent<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void;
  onConnectionChanged(listener: (state: ConnectionState) => void): () => void;
  readonly connection: () => ConnectionState;
  /** Gets back in with an address the user pasted (the served page after a restart); the desktop app has no use for it. */
  openAddress(text: string): PastedAddressOutcome;
}

/** The desktop transport: the preload's bridge over IPC. */
class IpcClient extends ClientBase implements VigilClient {
  constructor(private readonly bridge: VigilBridge) {
    super();
    bridge.onEvent((name, payload) => this.deliverEvent(name, payload));
    this.setState({ kind: 'connected', transport: 'ipc' });
  }

  call<C extends CallName>(channel: C, request: CallRequest<C>): Promise<Result<CallResponse<C>>> {
    return this.bridge.call(channel, request) as Promise<Result<CallResponse<C>>>;
  }

  openAddress(): PastedAddressOutcome {
    return { ok: false, reason: 'The desktop app connects by itself; there is no address to paste.' };
  }
}

/**
 * Connects to the core: the preload's bridge inside Electron, else a WebSocket to `/ws` on the
 * page's own server with the UI's credential from the URL's fragment (kept in sessionStorage).
 * With renderer/api/'s other files, the only place in the renderer that knows about transports.
 */
export function connectVigil(): VigilClient {
  const bridge = (window as unknown as Record<string, VigilBridge | undefined>)[bridgeGlobalName];
  if (bridge !== undefined) return new IpcClient(bridge);
  const token = takePageCredential();
  followCredentialChanges();
  return connectWebSocket(new URL(window.location.href), token);
}
