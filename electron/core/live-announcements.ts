import type { Disposer } from '../lib/disposable';
import type { EventHub } from '../lib/event-hub';
import type { Logger } from '../logging/logger';

/** Coalesces the events of one change (a checkpoint that also cut) into one count. */
const countSettleMs = 30;
/** A directory being written to is reported at most this often. */
const liveChangeMs = 200;

/**
 * After anything changes a timeline (a checkpoint by any process, a cut, a pin), tells every
 * client its count now (`checkpoints:timeline-changed`), so the folder picker and the timeline
 * header always agree with the store. Returns the disposer.
 */
export function announceTimelineChanges(
  events: EventHub,
  count: (dir: string) => Promise<number>,
  logger: Logger,
): Disposer {
  const pending = new Map<string, NodeJS.Timeout>();
  const schedule = (dir: string): void => {
    if (pending.has(dir)) return;
    pending.set(
      dir,
      setTimeout(() => {
        pending.delete(dir);
        count(dir).then(
          (total) => events.emit('checkpoints:timeline-changed', { dir, total }),
          (error: unknown) => logger.warn('could not count a timeline after it changed', { dir, error }),
        );
      }, countSettleMs),
    );
  };
  const stops = [
    events.on('checkpoints:created', (entry) => schedule(entry.dir)),
    events.on('checkpoints:cut', (cut) => schedule(cut.dir)),
    events.on('checkpoints:pin-changed', (pin) => schedule(pin.dir)),
  ];
  return () => {
    for (const stop of stops) stop();
    for (const timer of pending.values()) clearTimeout(timer);
    pending.clear();
  };
}

/** Reports that files changed in a watched directory (`checkpoints:live-changed`), at most every 200 ms per directory. */
export function createLiveChangeReporter(events: Pick<EventHub, 'emit'>): {
  readonly report: (dir: string) => void;
  readonly dispose: Disposer;
} {
  const pending = new Map<string, NodeJS.Timeout>();
  return {
    report: (dir) => {
      if (pending.has(dir)) return;
      const timer = setTimeout(() => {
        pending.delete(dir);
        events.emit('checkpoints:live-changed', { dir, at: new Date().toISOString() });
      }, liveChangeMs);
      timer.unref();
      pending.set(dir, timer);
    },
    dispose: () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    },
  };
}
