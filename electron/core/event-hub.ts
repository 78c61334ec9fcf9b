import type { EventName, EventPayload } from '../../shared/contract';
import type { Disposer } from './disposable';

/** A listener for every contract event, used by transports to forward them. */
export type AnyEventListener = (name: EventName, payload: unknown) => void;

/** The core's typed event bus: services emit contract events, transports forward them. */
export class EventHub {
  readonly #listeners = new Set<AnyEventListener>();

  /** Emits a contract event to every listener; a listener that throws does not stop the others. */
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    for (const listener of this.#listeners) {
      try {
        listener(name, payload);
      } catch {
        // A broken transport must not break the service that emitted the event.
      }
    }
  }

  /** Listens to every event; returns the disposer. */
  onAny(listener: AnyEventListener): Disposer {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Listens to one event; returns the disposer. */
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): Disposer {
    return this.onAny((eventName, payload) => {
      if (eventName === name) listener(payload as EventPayload<E>);
    });
  }
}
