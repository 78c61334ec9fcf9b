import type { CallName, CallRequest, CallResponse } from '../../shared/contract';
import { serverFrameSchema, type ClientFrame } from '../../shared/contract/wire';
import { pageSubprotocols } from '../../shared/ui-credential';
import type { Result } from '../../shared/result';
import type { ConnectionCause } from '../model/connection-state';
import { ClientBase } from './client-base';
import { openPastedAddress, type PastedAddressOutcome } from './page-credential';
import { probeServer, type ServerProbe } from './probe-server';
import type { VigilClient } from './vigil-client';

interface PendingCall {
  readonly frame: ClientFrame;
  readonly resolve: (result: Result<unknown>) => void;
  /** Whether the frame left on an open socket (then the core may have run it). */
  isSent: boolean;
}

/** Retries after a loss before the client gives up and says it is disconnected. */
const maxAttempts = 30;

/** Why the link is down, for the header, from the close code and what the probe found. */
const reasons = {
  refused:
    'the server no longer accepts this page’s token (vigil serve was restarted, which makes a new token): reopen the URL that vigil serve printed',
  noToken:
    "this page has no access token: open the URL that vigil serve printed (it ends in #token=…); the token in $VIGIL_HOME/serve.json is the command line's, which opens the page but cannot approve",
  misdirected: 'the server does not answer to this address: open the URL exactly as vigil serve printed it',
  unreachable: 'the server is not reachable (stopped, restarting, or the network dropped)',
  tooLarge: 'a message was too large for the server',
  dropped: 'the connection dropped, though the server still answers',
} as const;

/** Whether a probe's finding means retrying cannot help. */
const isFinal = (probe: ServerProbe): boolean => probe === 'refused' || probe === 'misdirected';

/**
 * The served transport: the contract over a WebSocket to the page's own server, reconnecting on
 * loss. A call is sent only on an open socket, or held unsent during the very first connect; when a
 * socket closes, every call not yet answered (sent or held) is answered `disconnected` and forgotten,
 * so a call the UI was told failed can never run later. Calls made while reconnecting fail at once.
 */
class WebSocketClient extends ClientBase implements VigilClient {
  /** Calls not yet answered, in the order they were made; those not yet sent go out on the first connect's `open`. */
  readonly #pending = new Map<number, PendingCall>();
  #socket: WebSocket | undefined;
  #nextId = 1;
  #attempt = 0;

  constructor(
    private readonly url: string,
    private readonly origin: string,
    token: string | undefined,
  ) {
    super();
    if (token === undefined) this.setState({ kind: 'disconnected', reason: reasons.noToken, cause: 'no-token' });
    else this.#open(token);
  }

  #open(token: string): void {
    // The credential rides in a subprotocol: only this socket's handshake carries it, never a cookie.
    const socket = new WebSocket(this.url, [...pageSubprotocols(token)]);
    this.#socket = socket;
    socket.addEventListener('message', (message) => this.#receive(message.data));
    socket.addEventListener('open', () => {
      this.#attempt = 0;
      for (const pending of this.#pending.values()) {
        if (pending.isSent) continue;
        socket.send(JSON.stringify(pending.frame));
        pending.isSent = true;
      }
      this.setState({ kind: 'connected', transport: 'websocket' });
    });
    socket.addEventListener('close', (event) => {
      this.#failPending();
      void this.#lost(event.code, event.reason, token);
    });
  }

  /** Answers every call still waiting, and forgets every frame not yet sent: none of them may run later. */
  #failPending(): void {
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      pending.resolve({
        ok: false,
        error: pending.isSent
          ? {
              code: 'disconnected',
              message: 'The connection to Vigil dropped before the answer came: it may or may not have run.',
            }
          : {
              code: 'disconnected',
              message: 'Vigil was not connected, so this was not sent and nothing ran.',
              details: { sent: false },
            },
      });
    }
  }

  async #lost(code: number, reason: string, token: string): Promise<void> {
    const probe = code === 1009 ? 'up' : await probeServer(this.origin, token);
    const why =
      code === 1009 ? reasons.tooLarge : probe === 'up' ? (reason !== '' ? reason : reasons.dropped) : reasons[probe];
    const cause: ConnectionCause = code === 1009 ? 'too-large' : probe === 'up' ? 'dropped' : probe;
    this.#attempt += 1;
    if (isFinal(probe) || this.#attempt > maxAttempts) {
      this.setState({ kind: 'disconnected', reason: why, cause: isFinal(probe) ? cause : 'gave-up' });
      return;
    }
    const retryInMs = Math.min(5000, 250 * 2 ** Math.min(this.#attempt - 1, 5));
    this.setState({ kind: 'reconnecting', reason: why, cause, attempt: this.#attempt, retryInMs });
    setTimeout(() => this.#open(token), retryInMs);
  }

  #receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let raw: unknown;
    try {
      raw = JSON.parse(data);
    } catch {
      return;
    }
    const parsed = serverFrameSchema.safeParse(raw);
    if (!parsed.success) return;
    const frame = parsed.data;
    if (frame.type === 'event') this.deliverEvent(frame.name, frame.payload);
    if (frame.type === 'result' && frame.id !== null) {
      const pending = this.#pending.get(frame.id);
      this.#pending.delete(frame.id);
      pending?.resolve(frame.result);
    }
  }

  openAddress(text: string): PastedAddressOutcome {
    return openPastedAddress(text);
  }

  call<C extends CallName>(channel: C, request: CallRequest<C>): Promise<Result<CallResponse<C>>> {
    const id = this.#nextId++;
    const frame: ClientFrame = { type: 'call', id, channel, payload: request };
    const socket = this.#socket;
    return new Promise((resolve) => {
      const settle = resolve as (result: Result<unknown>) => void;
      if (socket?.readyState === WebSocket.OPEN) {
        this.#pending.set(id, { frame, resolve: settle, isSent: true });
        socket.send(JSON.stringify(frame));
      } else if (socket?.readyState === WebSocket.CONNECTING && this.connection().kind === 'connecting') {
        this.#pending.set(id, { frame, resolve: settle, isSent: false });
      } else {
        const state = this.connection();
        const why = state.kind === 'reconnecting' || state.kind === 'disconnected' ? ` (${state.reason})` : '';
        settle({
          ok: false,
          error: {
            code: 'disconnected',
            message: `Vigil is not connected${why}, so this was not sent and nothing ran.`,
            details: { sent: false },
          },
        });
      }
    });
  }
}

/**
 * The contract over a WebSocket to `/ws` on the server that served `page`, presenting `token` (the
 * UI's credential) as a subprotocol; a refused handshake is told apart from a dead server by a
 * probe of the same origin. Without a token it connects nowhere and says how to get one.
 */
export function connectWebSocket(page: URL, token: string | undefined): VigilClient {
  const scheme = page.protocol === 'https:' ? 'wss:' : 'ws:';
  return new WebSocketClient(`${scheme}//${page.host}/ws`, page.origin, token);
}
