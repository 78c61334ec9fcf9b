import type { EventName, EventPayload } from '../../shared/contract';
import type { Disposer } from './disposable';

/** A listener for every contract event, used by transports to forward them. */
export type AnyEventListener = (name: EventName, payload: unknown) => void;

/** The core's typed event bus: services emit contract events, transports forward them. */
export class EventHub {
  readonly #anyListeners = new Set<AnyEventListener>();
  readonly #listeners = new Map<EventName, Set<(payload: unknown) => void>>();

  /** Emits a contract event to every listener; a listener that throws does not stop the others. */
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    const named = this.#listeners.get(name);
    for (const listener of named ?? []) this.#call(() => listener(payload));
    for (const listener of this.#anyListeners) this.#call(() => listener(name, payload));
  }

  /** Listens to every event. */
  onAny(listener: AnyEventListener): Disposer<void> {
    this.#anyListeners.add(listener);
    return () => {
      this.#anyListeners.delete(listener);
    };
  }

  /** Listens to one event. */
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): Disposer<void> {
    const wrapped = listener as (payload: unknown) => void;
    let named = this.#listeners.get(name);
    if (named === undefined) {
      named = new Set();
      this.#listeners.set(name, named);
    }
    named.add(wrapped);
    return () => {
      named.delete(wrapped);
    };
  }

  #call(deliver: () => void): void {
    try {
      deliver();
    } catch {
      // A broken listener (a closed transport) must not break the service that emitted the event.
    }
  }
}
