import type { SessionHistory } from '../shared/contract/sessions-contract';
import type {
  AgentMethodParams,
  AgentMethodResult,
  AgentToolCall,
  AgentToolOutcome,
} from '../shared/agent-protocol/agent-methods';
import type { AgentNotificationName, AgentNotificationParams } from '../shared/agent-protocol/agent-notifications';
import type { RemoveListener, VigilAgentClient } from './vigil-agent-client';

/** A message role in the transcript. */
export type MessageRole = AgentMethodParams<'message.append'>['role'];

/**
 * One open session on a `VigilAgentClient`: turns, transcript messages, tool batches and the
 * session's own notifications.
 */
export class AgentSession {
  readonly #client: VigilAgentClient;
  readonly #openParams: AgentMethodParams<'session.open'>;
  readonly #resumedListeners = new Set<(history: SessionHistory) => void>();
  #history: SessionHistory;

  /** Made by `VigilAgentClient.openSession`. */
  constructor(
    client: VigilAgentClient,
    readonly id: string,
    openParams: AgentMethodParams<'session.open'>,
    history: SessionHistory,
  ) {
    this.#client = client;
    this.#openParams = openParams;
    this.#history = history;
  }

  /** The canonical history as of the last open, re-open or rewind. */
  get history(): SessionHistory {
    return this.#history;
  }

  /** Starts a turn (the previous one ends); checkpoints are taken at most once per directory per turn. */
  async beginTurn(userMessage?: string): Promise<number> {
    const params = userMessage === undefined ? { sessionId: this.id } : { sessionId: this.id, userMessage };
    return (await this.#client.request('turn.begin', params)).turn;
  }

  /** Adds a transcript message to the current turn. */
  async appendMessage(role: MessageRole, text: string): Promise<void> {
    await this.#client.request('message.append', { sessionId: this.id, role, text });
  }

  /** Runs a batch of tool calls; outcomes come back in call order, refused calls included. */
  async callTools(
    calls: readonly AgentToolCall[],
    options: { readonly concurrent?: boolean } = {},
  ): Promise<readonly AgentToolOutcome[]> {
    const result = await this.#client.request('tools.call', {
      sessionId: this.id,
      calls: [...calls],
      concurrent: options.concurrent ?? false,
    });
    return result.outcomes;
  }

  /** Runs one tool call. */
  async callTool(name: string, toolArguments: Record<string, unknown>, callId?: string): Promise<AgentToolOutcome> {
    const [outcome] = await this.callTools([
      callId === undefined ? { name, arguments: toolArguments } : { callId, name, arguments: toolArguments },
    ]);
    if (outcome === undefined) throw new Error('Vigil answered a one-call batch with no outcome.');
    return outcome;
  }

  /** Ends the open turn. */
  async endTurn(): Promise<void> {
    await this.#client.request('turn.end', { sessionId: this.id });
  }

  /** Fetches the canonical history. */
  async fetchHistory(): Promise<SessionHistory> {
    this.#history = await this.#client.request('session.history', { sessionId: this.id });
    return this.#history;
  }

  /** Ends the session; its log stays. */
  async close(): Promise<AgentMethodResult<'session.close'>['session']> {
    const { session } = await this.#client.request('session.close', { sessionId: this.id });
    this.#client.forget(this.id);
    return session;
  }

  /** Listens to one notification about this session only. */
  on<N extends AgentNotificationName>(name: N, listener: (params: AgentNotificationParams<N>) => void): RemoveListener {
    return this.#client.on(name, (params) => {
      if (params.sessionId !== this.id) return;
      if (name === 'session.rewound') this.#history = (params as AgentNotificationParams<'session.rewound'>).history;
      listener(params);
    });
  }

  /** Listens to re-opens after a reconnect, with the canonical history. */
  onResumed(listener: (history: SessionHistory) => void): RemoveListener {
    this.#resumedListeners.add(listener);
    return () => {
      this.#resumedListeners.delete(listener);
    };
  }

  /** The params that re-open this session after a reconnect. */
  reopenParams(): AgentMethodParams<'session.open'> {
    return { ...this.#openParams, sessionId: this.id };
  }

  /** Called by the client after a reconnect re-opened this session. */
  resumed(history: SessionHistory): void {
    this.#history = history;
    for (const listener of this.#resumedListeners) listener(history);
  }
}
