import type { EventName, EventPayload } from '../../shared/contract';
import type { EventHub } from '../lib/event-hub';

/** The next event of this name that passes `test` (an app signal to wait on: no sleeps, no timing). */
export function nextEvent<E extends EventName>(
  events: EventHub,
  name: E,
  test: (payload: EventPayload<E>) => boolean = () => true,
): Promise<EventPayload<E>> {
  return new Promise((resolve) => {
    const stop = events.on(name, (payload) => {
      if (!test(payload)) return;
      stop();
      resolve(payload);
    });
  });
}
