import {
  eventSpecs,
  isEventName,
  type CallName,
  type CallRequest,
  type CallResponse,
  type EventName,
  type EventPayload,
} from '../../shared/contract';
import { bridgeGlobalName, type VigilBridge } from '../../shared/contract/bridge';
import { serverFrameSchema, type ClientFrame } from '../../shared/contract/wire';
import type { Result } from '../../shared/result';
import type { ConnectionState } from '../model/connection-state';

export type { ConnectionState } from '../model/connection-state';


/** The renderer's one API to the core; it does not say whether IPC or WebSocket carries it. */
export interface VigilClient {
  call<C extends CallName>(channel: C, request: CallRequest<C>): Promise<Result<CallResponse<C>>>;
  onEvent<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void;
  onConnectionChanged(listener: (state: ConnectionState) => void): () => void;
  readonly connection: () => ConnectionState;
}

type EventListener = (payload: unknown) => void;

/** Shared bookkeeping of both transports: event fan-out (validated) and connection listeners. */
class ClientBase {
  readonly #eventListeners = new Map<EventName, Set<EventListener>>();
  readonly #connectionListeners = new Set<(state: ConnectionState) => void>();
  #state: ConnectionState = { kind: 'connecting' };

  protected deliverEvent(name: string, payload: unknown): void {
    if (!isEventName(name)) return;
    const parsed = eventSpecs[name].payload.safeParse(payload);
    if (!parsed.success) return;
    for (const listener of this.#eventListeners.get(name) ?? []) listener(parsed.data);
  }

  protected setState(state: ConnectionState): void {
    this.#state = state;
    for (const listener of this.#connectionListeners) listener(state);
  }

  readonly connection = (): ConnectionState => this.#state;

  onEvent<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
    const wrapped = listener as EventListener;
    let listeners = this.#eventListeners.get(name);
    if (listeners === undefined) {
      listeners = new Set();
      this.#eventListeners.set(name, listeners);
    }
    listeners.add(wrapped);
    return () => {
      listeners.delete(wrapped);
    };
  }

  onConnectionChanged(listener: (state: ConnectionState) => void): () => void {
    this.#connectionListeners.add(listener);
    listener(this.#state);
    return () => this.#connectionListeners.delete(listener);
  }
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
}

interface PendingCall {
  readonly resolve: (result: Result<unknown>) => void;
}

/** The served transport: the contract over a WebSocket to the page's own server, reconnecting on loss. */
class WebSocketClient extends ClientBase implements VigilClient {
  readonly #pending = new Map<number, PendingCall>();
  readonly #queue: ClientFrame[] = [];
  #socket: WebSocket | undefined;
  #nextId = 1;
  #attempt = 0;

  constructor(private readonly url: string) {
    super();
    this.#open();
  }

  #open(): void {
    const socket = new WebSocket(this.url);
    this.#socket = socket;
    socket.addEventListener('message', (message) => this.#receive(message.data));
    socket.addEventListener('open', () => {
      this.#attempt = 0;
      this.setState({ kind: 'connected', transport: 'websocket' });
      for (const frame of this.#queue.splice(0)) socket.send(JSON.stringify(frame));
    });
    socket.addEventListener('close', (event) => this.#lost(event.code, event.reason));
  }

  #lost(code: number, reason: string): void {
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      pending.resolve({
        ok: false,
        error: { code: 'disconnected', message: 'The connection to Vigil dropped before the answer came. Try again once it is back.' },
      });
    }
    const why =
      code === 1008 || code === 1002
        ? 'the server refused the connection (is the token still valid? reopen the URL that vigil serve printed)'
        : code === 1009
          ? 'a message was too large for the server'
          : reason !== ''
            ? reason
            : 'the server is not reachable (stopped, restarting, or the network dropped)';
    this.#attempt += 1;
    if (this.#attempt > 30) {
      this.setState({ kind: 'disconnected', reason: why });
      return;
    }
    const retryInMs = Math.min(5000, 250 * 2 ** Math.min(this.#attempt - 1, 5));
    this.setState({ kind: 'reconnecting', reason: why, attempt: this.#attempt, retryInMs });
    setTimeout(() => this.#open(), retryInMs);
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

  call<C extends CallName>(channel: C, request: CallRequest<C>): Promise<Result<CallResponse<C>>> {
    const id = this.#nextId++;
    const frame: ClientFrame = { type: 'call', id, channel, payload: request };
    return new Promise((resolve) => {
      this.#pending.set(id, { resolve: resolve as (result: Result<unknown>) => void });
      if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify(frame));
      else this.#queue.push(frame);
    });
  }
}

/**
 * Connects to the core: the preload's bridge inside Electron, else a WebSocket to `/ws` on the
 * page's own server (the token travels in the page's HttpOnly cookie). The only place in the
 * renderer that knows about transports.
 */
export function connectVigil(): VigilClient {
  const bridge = (window as unknown as Record<string, VigilBridge | undefined>)[bridgeGlobalName];
  if (bridge !== undefined) return new IpcClient(bridge);
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return new WebSocketClient(`${scheme}//${window.location.host}/ws`);
}
