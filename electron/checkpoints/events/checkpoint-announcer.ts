import type { EventName, EventPayload } from '../../../shared/contract';
import type { EventHub } from '../../lib';
import { toContractEntry } from '../checkpoint-handlers';
import type { CheckpointEntry } from '../checkpoint-types';

/** Every `checkpoints:*` event of the contract. */
export type CheckpointEventName = Extract<EventName, `checkpoints:${string}`>;

/** How many announced ids are remembered (far more than any burst between two scans). */
const remembered = 10_000;

/**
 * The one emitter of `checkpoints:*` events (lint forbids emitting them anywhere else): a typed
 * method per event of the contract. Without a hub (a one-shot core, a test) it announces nothing.
 */
export class CheckpointAnnouncer {
  readonly #createdIds = new Set<string>();

  constructor(private readonly events: Pick<EventHub, 'emit'> | undefined) {}

  /**
   * `checkpoints:created`, once per checkpoint, whether this process took it or a watcher found it
   * (taken by another process, or by Hermes Agent): whichever comes first wins, the other is
   * skipped, so the UI never counts one checkpoint twice. Whether it was announced now.
   */
  created(entry: CheckpointEntry): boolean {
    if (this.events === undefined || this.#createdIds.has(entry.id)) return false;
    this.#createdIds.add(entry.id);
    if (this.#createdIds.size > remembered) {
      const oldest = this.#createdIds.values().next().value;
      if (oldest !== undefined) this.#createdIds.delete(oldest);
    }
    this.#emit('checkpoints:created', toContractEntry(entry));
    return true;
  }

  /** `checkpoints:cut`: checkpoints were dropped (by this process, or read from another's cut log). */
  cut(record: EventPayload<'checkpoints:cut'>): void {
    this.#emit('checkpoints:cut', record);
  }

  /** `checkpoints:pin-changed`: a checkpoint was pinned or unpinned. */
  pinChanged(change: EventPayload<'checkpoints:pin-changed'>): void {
    this.#emit('checkpoints:pin-changed', change);
  }

  /** `checkpoints:renamed`: a checkpoint was named, renamed or its name taken away. */
  renamed(change: EventPayload<'checkpoints:renamed'>): void {
    this.#emit('checkpoints:renamed', change);
  }

  /** `checkpoints:restore-progressed`: a running restore moved on. */
  restoreProgressed(progress: EventPayload<'checkpoints:restore-progressed'>): void {
    this.#emit('checkpoints:restore-progressed', progress);
  }

  /** `checkpoints:timeline-changed`: a directory's timeline holds `total` checkpoints now. */
  timelineChanged(dir: string, total: number): void {
    this.#emit('checkpoints:timeline-changed', { dir, total });
  }

  /** `checkpoints:live-changed`: files changed in watched `dir`, so a comparison with it is out of date. */
  liveChanged(dir: string): void {
    this.#emit('checkpoints:live-changed', { dir, at: new Date().toISOString() });
  }

  #emit<E extends CheckpointEventName>(name: E, payload: EventPayload<E>): void {
    this.events?.emit(name, payload);
  }
}

/** Which method announces each event: `tsc` fails here when the contract gains a `checkpoints:*` event this class lacks. */
export const announcerMethodOf = {
  'checkpoints:created': 'created',
  'checkpoints:cut': 'cut',
  'checkpoints:pin-changed': 'pinChanged',
  'checkpoints:renamed': 'renamed',
  'checkpoints:restore-progressed': 'restoreProgressed',
  'checkpoints:timeline-changed': 'timelineChanged',
  'checkpoints:live-changed': 'liveChanged',
} as const satisfies Record<CheckpointEventName, keyof CheckpointAnnouncer>;
