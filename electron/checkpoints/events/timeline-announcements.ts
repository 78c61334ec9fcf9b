import type { Disposer, EventHub } from '../../lib';
import type { Logger } from '../../logging';
import type { CheckpointAnnouncer } from './checkpoint-announcer';

/** Coalesces the events of one change (a checkpoint that also cut) into one count. */
const countSettleMs = 30;
/** A directory being written to is reported at most this often. */
const liveChangeMs = 200;

/**
 * After anything changes a timeline (a checkpoint by any process, a cut, a pin), tells every
 * client its count now (`checkpoints:timeline-changed`), so the folder picker and the timeline
 * header always agree with the store. `count` is given the events' `dir`, a resolved folder (an
 * entry's, or the registry's), which it need not resolve again. Returns the disposer.
 */
export function announceTimelineChanges(
  events: Pick<EventHub, 'on'>,
  announcer: CheckpointAnnouncer,
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
          (total) => announcer.timelineChanged(dir, total),
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
export function createLiveChangeReporter(announcer: CheckpointAnnouncer): {
  readonly report: (dir: string) => void;
  readonly dispose: Disposer;
} {
  const pending = new Map<string, NodeJS.Timeout>();
  return {
    report: (dir) => {
      if (pending.has(dir)) return;
      const timer = setTimeout(() => {
        pending.delete(dir);
        announcer.liveChanged(dir);
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
