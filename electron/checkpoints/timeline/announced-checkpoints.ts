import type { EventHub } from '../../lib/event-hub';
import { toContractEntry } from '../checkpoint-handlers';
import type { CheckpointEntry } from '../checkpoint-types';

/** How many announced ids are remembered (far more than any burst between two scans). */
const remembered = 10_000;

/**
 * Announces each checkpoint once as `checkpoints:created`, whether this process took it or the
 * store watcher found it (taken by another process): whichever comes first wins, the other is
 * skipped, so the UI never counts one checkpoint twice.
 */
export class AnnouncedCheckpoints {
  readonly #ids = new Set<string>();

  constructor(private readonly events: Pick<EventHub, 'emit'> | undefined) {}

  /** Emits the event unless this checkpoint was announced already; whether it was emitted now. */
  announce(entry: CheckpointEntry): boolean {
    if (this.events === undefined || this.#ids.has(entry.id)) return false;
    this.#ids.add(entry.id);
    if (this.#ids.size > remembered) {
      const oldest = this.#ids.values().next().value;
      if (oldest !== undefined) this.#ids.delete(oldest);
    }
    this.events.emit('checkpoints:created', toContractEntry(entry));
    return true;
  }
}
