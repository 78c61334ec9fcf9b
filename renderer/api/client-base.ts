import { eventSpecs, isEventName, type EventName, type EventPayload } from '../../shared/contract';
import type { ConnectionState } from '../model/connection-state';

type EventListener = (payload: unknown) => void;

/** Shared bookkeeping of both transports: event fan-out (validated) and connection listeners. */
export class ClientBase {
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
