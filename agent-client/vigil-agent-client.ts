import { AppError } from '../shared/errors';
import {
  agentMethods,
  type AgentMethodName,
  type AgentMethodParams,
  type AgentMethodResult,
} from '../shared/agent-protocol/agent-methods';
import {
  agentNotifications,
  isAgentNotificationName,
  type AgentNotificationName,
  type AgentNotificationParams,
} from '../shared/agent-protocol/agent-notifications';
import { AgentSession } from './agent-session';
import { JsonRpcConnection, type JsonRpcEndpoint } from './json-rpc-connection';

/** Options of the client. */
export interface VigilAgentClientOptions extends JsonRpcEndpoint {
  /** Reconnect after the connection drops (default true); sessions are re-opened with their ids. */
  readonly reconnect?: boolean;
  /** The longest wait between reconnection attempts, in ms (default 5,000). */
  readonly maxReconnectDelayMs?: number;
  /**
   * Where to reconnect: called before each attempt, so a restarted server (a new port, in
   * `$VIGIL_HOME/serve.json`) is found again. Default: the same URL and credential.
   */
  readonly resolveEndpoint?: () => Promise<JsonRpcEndpoint>;
}

/** What the client reports about its connection. */
export type ConnectionState = 'connected' | 'reconnecting' | 'closed';

type NotificationListener<N extends AgentNotificationName> = (params: AgentNotificationParams<N>) => void;

/** Removes a listener. */
export type RemoveListener = () => void;

/**
 * The TypeScript client of Vigil's agent protocol: typed methods, notifications, and reconnection.
 * After a drop it reconnects with backoff and re-opens every open session by id, so the agent gets
 * the canonical history; requests made meanwhile wait for the new connection, and requests that
 * were in flight reject with `disconnected` (they may or may not have run).
 */
export class VigilAgentClient {
  readonly #options: VigilAgentClientOptions;
  readonly #sessions = new Map<string, AgentSession>();
  readonly #listeners = new Map<AgentNotificationName, Set<(params: unknown) => void>>();
  readonly #stateListeners = new Set<(state: ConnectionState) => void>();
  #connection!: JsonRpcConnection;
  #state: ConnectionState = 'connected';
  #reconnected: Promise<void> | undefined;

  private constructor(options: VigilAgentClientOptions) {
    this.#options = options;
  }

  /** Connects to a running Vigil (`ws://127.0.0.1:PORT/agent`, or the server's http:// base URL). */
  static async connect(options: VigilAgentClientOptions): Promise<VigilAgentClient> {
    const client = new VigilAgentClient(options);
    client.#connection = await client.#open(options);
    return client;
  }

  /** `connected`, `reconnecting` or `closed`. */
  get state(): ConnectionState {
    return this.#state;
  }

  /** Sends one method with typed params and result. Validation errors name the field (`invalid_request`). */
  async request<M extends AgentMethodName>(method: M, params: AgentMethodParams<M>): Promise<AgentMethodResult<M>> {
    if (this.#state === 'closed') throw new AppError('disconnected', 'This client was closed.');
    if (this.#reconnected !== undefined) await this.#reconnected;
    const raw = await this.#connection.request(method, params);
    const parsed = agentMethods[method].result.safeParse(raw);
    if (!parsed.success) {
      throw new AppError(
        'unexpected',
        `Vigil answered ${method} with a result this client does not understand; update the client.`,
      );
    }
    return parsed.data as AgentMethodResult<M>;
  }

  /** Opens a session (or re-attaches to `sessionId`) and returns its handle. */
  async openSession(params: AgentMethodParams<'session.open'>): Promise<AgentSession> {
    const opened = await this.request('session.open', params);
    const session = new AgentSession(this, opened.session.id, params, opened.history);
    this.#sessions.set(session.id, session);
    return session;
  }

  /** Listens to one notification, for every session of this client. */
  on<N extends AgentNotificationName>(name: N, listener: NotificationListener<N>): RemoveListener {
    let set = this.#listeners.get(name);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(name, set);
    }
    const wrapped = listener as (params: unknown) => void;
    set.add(wrapped);
    return () => {
      set.delete(wrapped);
    };
  }

  /** Listens to connection state changes. */
  onStateChanged(listener: (state: ConnectionState) => void): RemoveListener {
    this.#stateListeners.add(listener);
    return () => {
      this.#stateListeners.delete(listener);
    };
  }

  /** Closes the connection without closing the sessions (they can be re-opened by id). */
  async close(): Promise<void> {
    this.#setState('closed');
    await this.#connection.close();
  }

  /** Forgets a session this client closed. */
  forget(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  #open(endpoint: JsonRpcEndpoint): Promise<JsonRpcConnection> {
    return JsonRpcConnection.open(
      endpoint,
      (method, params) => this.#notify(method, params),
      () => this.#dropped(),
    );
  }

  #isClosed(): boolean {
    return this.#state === 'closed';
  }

  #notify(method: string, params: unknown): void {
    if (!isAgentNotificationName(method)) return;
    const parsed = agentNotifications[method].params.safeParse(params);
    if (!parsed.success) return;
    for (const listener of this.#listeners.get(method) ?? []) {
      try {
        listener(parsed.data);
      } catch {
        // A listener's bug must not take the connection down.
      }
    }
  }

  #setState(state: ConnectionState): void {
    if (this.#state === state) return;
    this.#state = state;
    for (const listener of this.#stateListeners) listener(state);
  }

  #dropped(): void {
    if (this.#state === 'closed') return;
    if (this.#options.reconnect === false) {
      this.#setState('closed');
      return;
    }
    this.#setState('reconnecting');
    if (this.#reconnected !== undefined) return;
    const attempt = this.#reconnect();
    this.#reconnected = attempt;
    attempt.then(
      () => {
        this.#reconnected = undefined;
        // It may have dropped again between the re-open and here.
        if (!this.#connection.isOpen) this.#dropped();
      },
      () => {
        this.#reconnected = undefined;
      },
    );
  }

  async #reconnect(): Promise<void> {
    const maxDelay = this.#options.maxReconnectDelayMs ?? 5_000;
    let delay = 100;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, delay * (0.5 + Math.random() / 2)));
      if (this.#isClosed()) throw new AppError('disconnected', 'This client was closed.');
      try {
        const endpoint = (await this.#options.resolveEndpoint?.()) ?? this.#options;
        const connection = await this.#open(endpoint);
        if (this.#isClosed()) {
          await connection.close();
          throw new AppError('disconnected', 'This client was closed.');
        }
        this.#connection = connection;
        for (const session of [...this.#sessions.values()]) {
          try {
            const reopened = await connection.request('session.open', session.reopenParams());
            session.resumed(agentMethods['session.open'].result.parse(reopened).history);
          } catch (error) {
            if (error instanceof AppError && error.code === 'disconnected') throw error;
            // The server no longer accepts this session (deleted, invalid): stop re-opening it.
            this.#sessions.delete(session.id);
          }
        }
        this.#setState('connected');
        return;
      } catch (error) {
        if (error instanceof AppError && error.code === 'unauthorized' && this.#options.resolveEndpoint === undefined) {
          this.#setState('closed');
          throw error;
        }
        delay = Math.min(maxDelay, delay * 2);
      }
    }
  }
}
