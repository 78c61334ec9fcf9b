import type { Logger } from '../logging/logger';
import type { PruneReport, RetentionPolicy } from './checkpoint-types';
import { collectGarbage } from './garbage-collector';
import type { ObjectStore } from './object-store';
import type { RefStore } from './ref-store';
import { cutTimeline, droppableByAge, dropOldest } from './retention';
import { measureStore } from './store-usage';
import type { Timeline } from './timeline';

/** What maintenance needs from the service. */
export interface MaintenanceOptions {
  /** Run checks in the background after snapshots (the app, `vigil serve`). */
  readonly enabled: boolean;
  readonly logger: Logger;
  /** Runs work under the store lock. */
  readonly run: <T>(work: () => Promise<T>) => Promise<T>;
  readonly store: ObjectStore;
  readonly refs: RefStore;
  readonly timeline: Timeline;
  readonly retention: RetentionPolicy;
}

/** Loose objects tolerated before they are packed. */
const maxLooseObjects = 1_500;
/** Packs tolerated before they are merged. */
const maxPacks = 8;
/** Dropped checkpoints tolerated before their objects are collected. */
const maxDroppedSinceCollect = 100;

/**
 * Keeps the store small: packs loose objects and merges packs (one garbage collection does
 * both), applies the retention policy, and enforces the size cap by dropping the oldest
 * checkpoints across all directories (never a directory's newest).
 */
export class StoreMaintenance {
  #timer: NodeJS.Timeout | undefined;
  #droppedSinceCollect = 0;
  #running: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: MaintenanceOptions) {}

  /** Counts checkpoints dropped by a timeline cut (their objects wait for the next collection). */
  noteDropped(count: number): void {
    this.#droppedSinceCollect += count;
  }

  /** Looks at the store a few seconds from now (coalesced), when enabled. */
  schedule(): void {
    if (!this.options.enabled || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.options.run(() => this.#check()).catch((error: unknown) => this.options.logger.warn('checkpoint store maintenance failed', { error }));
    }, 5_000);
    this.#timer.unref();
  }

  /** Applies the whole retention policy now and collects garbage. */
  prune(): Promise<PruneReport> {
    return this.options.run(async () => {
      const { refs, timeline, store, retention } = this.options;
      const before = await measureStore(store.objectsDir);
      let droppedCheckpoints = 0;
      for (const head of (await refs.list()).values()) droppedCheckpoints += await cutTimeline(refs, timeline, head, retention.maxSnapshots);
      const collected = await collectGarbage(store, refs, timeline);
      const capped = await this.#enforceSizeCap();
      this.#droppedSinceCollect = 0;
      const after = await measureStore(store.objectsDir);
      return {
        droppedCheckpoints: droppedCheckpoints + capped.droppedCheckpoints,
        droppedObjects: collected.droppedObjects + capped.droppedObjects,
        bytesBefore: before.bytes,
        bytesAfter: after.bytes,
      };
    });
  }

  /** Stops the timer; waits for a running check. In one-shot processes, collects when the store got untidy. */
  async dispose(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
    if (!this.options.enabled) await this.options.run(() => this.#check()).catch((error: unknown) => this.options.logger.warn('checkpoint store maintenance failed', { error }));
  }

  async #check(): Promise<void> {
    const { store, refs, timeline, retention } = this.options;
    const usage = await measureStore(store.objectsDir, { estimateLoose: true });
    const isUntidy = usage.looseObjects > maxLooseObjects || usage.packs > maxPacks || this.#droppedSinceCollect > maxDroppedSinceCollect;
    if (isUntidy) {
      await collectGarbage(store, refs, timeline);
      this.#droppedSinceCollect = 0;
    }
    if (usage.bytes > retention.maxTotalBytes) await this.#enforceSizeCap();
  }

  /** Drops the oldest checkpoints (a quarter of the droppable ones per round) until the store fits its cap. */
  async #enforceSizeCap(): Promise<{ droppedCheckpoints: number; droppedObjects: number }> {
    const { store, refs, timeline, retention, logger } = this.options;
    let droppedCheckpoints = 0;
    let droppedObjects = 0;
    for (let round = 0; round < 6; round += 1) {
      if ((await measureStore(store.objectsDir)).bytes <= retention.maxTotalBytes) break;
      const droppable = (await droppableByAge(refs, timeline)).length;
      if (droppable === 0) {
        logger.warn('the checkpoint store is over its size cap with only the newest checkpoint of each directory left', { cap: retention.maxTotalBytes });
        break;
      }
      droppedCheckpoints += await dropOldest(refs, timeline, Math.max(1, Math.ceil(droppable / 4)));
      droppedObjects += (await collectGarbage(store, refs, timeline)).droppedObjects;
    }
    return { droppedCheckpoints, droppedObjects };
  }
}
