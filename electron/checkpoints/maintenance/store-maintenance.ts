import type { PlainActor } from '../../../shared/contract/actor-model';
import type { Logger } from '../../logging';
import type { CutReason } from '../../../shared/contract/checkpoints-live-contract';
import type { PruneReport, RetentionPolicy } from '../checkpoint-types';
import { collectGarbage, mergeSmallPacks, type ObjectStore, type RefStore } from '../../git-store';
import { expireByAge, type DroppedContext } from './dropped-area';
import { cutTimeline, type CutOptions } from './retention';
import { enforceSizeCap } from './size-cap';
import { measureStore } from './store-usage';
import { QuietTimer, type QuietTiming } from './quiet-timer';
import type { MaintenanceOutcome } from './maintenance-outcome';

export type { MaintenanceOutcome } from './maintenance-outcome';
import type { Timeline } from '../timeline/timeline';
import type { Disposer } from '../../lib';

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
  /** The retention policy in force now (config.json can change it while the process runs). */
  readonly retention: () => RetentionPolicy;
  /** Every pinned checkpoint: never dropped. */
  readonly pinnedIds: () => Promise<ReadonlySet<string>>;
  /** Records a cut (the log, the cut log, the UI's event): nothing is dropped silently. */
  readonly reportCut: (cut: {
    readonly dirhash: string;
    readonly dropped: number;
    readonly kept: number;
    readonly reason: CutReason;
    readonly actor?: PlainActor;
  }) => Promise<void>;
  /** Fails unless the store lock is still this process's (asked before every destructive step). */
  readonly assertHeld: () => Promise<void>;
  /** Whether other work of this process waits in line for the store lock now (a checkpoint, a restore). */
  readonly isLockWanted: () => boolean;
  /** Trees a collection keeps though no ref names them yet (warmed first snapshots, see `CheckpointService.warmUp`). */
  readonly keptTrees?: () => readonly string[];
  /** The recently dropped area, with the number of days it keeps checkpoints now. */
  readonly dropped: () => DroppedContext;
  /** How long background looks wait for quiet, and at most (default 5 s and 60 s). */
  readonly timing?: QuietTiming;
}

/** Loose objects tolerated before they are packed. */
const maxLooseObjects = 1_500;
/** Packs tolerated before they are merged. */
const maxPacks = 8;
/** Dropped checkpoints tolerated before their objects are collected. */
const maxDroppedSinceCollect = 100;
/**
 * Collections in a row that may give way to waiting work; the next one runs to the end (as does
 * any when the store is far past its limits, or over its size cap), so a busy store still gets tidied.
 */
const maxGiveWaysInARow = 5;
/** How far past the loose-object and pack limits the store may get before a collection no longer gives way. */
const farBehindFactor = 4;

/**
 * Keeps the store small: packs loose objects and merges packs (one garbage collection does
 * both), applies the retention policy, and enforces the size cap by dropping the oldest
 * checkpoints across all directories (never a directory's newest).
 */
export class StoreMaintenance {
  /** Background looks run once no checkpoint or restore came for a while: never beside the user's work, unless it never stops. */
  readonly #quiet: QuietTimer;
  #droppedSinceCollect = 0;
  #gaveWayInARow = 0;
  /**
   * Whether the store may hold garbage a collection would free: checkpoints were dropped since this
   * process last collected, or it has not collected yet (another process may have dropped some).
   */
  #mayHoldGarbage = true;
  #isDisposed = false;
  /** Whether this process changed the store (a checkpoint taken, a cut, anything done under the lock but an unchanged checkpoint). */
  #hasChangedStore = false;
  /**
   * Restores running now (checkpoint id → how many): while any does, maintenance waits (a restore
   * reads objects without the store lock), and every retention cut keeps their checkpoints.
   */
  readonly #holds = new Map<string, number>();
  #isDeferred = false;
  readonly #waitingForIdle: Array<() => void> = [];

  constructor(private readonly options: MaintenanceOptions) {
    // No look while a restore runs: it waits for the next quiet spell after it.
    this.#quiet = new QuietTimer(
      () => (this.#holds.size > 0 ? Promise.resolve(false) : this.#maintainLogged()),
      options.timing,
    );
  }

  /** Counts checkpoints dropped by a timeline cut (their objects wait for the next collection). */
  noteDropped(count: number): void {
    this.#droppedSinceCollect += count;
    if (count > 0) {
      this.#mayHoldGarbage = true;
      this.#hasChangedStore = true;
    }
  }

  /** This process changed the store: a one-shot process then looks at it before it exits. */
  noteStoreChanged(): void {
    this.#hasChangedStore = true;
  }

  /** Store work happened: looks at the store (when enabled) once quiet for 5 s, at most a minute after the first ask. */
  schedule(): void {
    if (!this.options.enabled || this.#isDisposed) return;
    this.#quiet.noteActivity();
    this.#quiet.request();
  }

  /**
   * Looks at the store now, under the store lock: collects garbage when it got untidy and
   * enforces the size cap. A collection gives way (stops, changing nothing, and is scheduled
   * again) when other work of this process waits for the lock meanwhile (a restore, a checkpoint,
   * a pin, the stat cache's save): on a big store it takes seconds, which the user's restore or
   * the agent's write must not wait for. It runs to the end after five give-ways in a row, when
   * the store is four times past its limits, and over the size cap.
   */
  maintain(): Promise<MaintenanceOutcome> {
    return this.options.run(() => this.#check());
  }

  /** After a collection: no dropped checkpoint's objects are left to collect. */
  #noteCollected(): void {
    this.#droppedSinceCollect = 0;
    this.#mayHoldGarbage = false;
  }

  /** `maintain`, its failure logged (background work: nobody waits for its answer); false when it must run again. */
  async #maintainLogged(): Promise<boolean> {
    try {
      const outcome = await this.maintain();
      return outcome !== 'gave-way' && outcome !== 'deferred';
    } catch (error) {
      this.options.logger.warn('checkpoint store maintenance failed', { error });
      return true;
    }
  }

  /**
   * Holds maintenance off (no pruning, packing or garbage collection in this process) and keeps
   * `checkpointId` from every retention cut until the returned release is called: a restore of it
   * reads the objects it needs without the store lock.
   */
  hold(checkpointId: string): Disposer<void> {
    this.#quiet.noteActivity();
    this.#holds.set(checkpointId, (this.#holds.get(checkpointId) ?? 0) + 1);
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      this.#quiet.noteActivity();
      const left = (this.#holds.get(checkpointId) ?? 1) - 1;
      if (left > 0) this.#holds.set(checkpointId, left);
      else this.#holds.delete(checkpointId);
      if (this.#holds.size > 0) return;
      for (const wake of this.#waitingForIdle.splice(0)) wake();
      if (this.#isDeferred) {
        this.#isDeferred = false;
        this.schedule();
      }
    };
  }

  /** Applies the whole retention policy now and collects garbage (after any running restore). */
  async prune(actor: PlainActor = 'vigil'): Promise<PruneReport> {
    if (this.#holds.size > 0) this.options.logger.info('checkpoint prune waits for the running restore to finish');
    while (this.#holds.size > 0) await new Promise<void>((resolve) => this.#waitingForIdle.push(resolve));
    return this.options.run(async () => {
      const { refs, timeline, store } = this.options;
      const before = await measureStore(store.objectsDir);
      let droppedCheckpoints = 0;
      await this.#expireByAge();
      const cutOptions = await this.cutOptions();
      for (const [dirhash, head] of await refs.list()) {
        const dropped = await cutTimeline(
          refs,
          timeline,
          { dirhash, head },
          this.options.retention().maxSnapshots,
          'prune',
          cutOptions,
        );
        if (dropped === 0) continue;
        droppedCheckpoints += dropped;
        await this.options.reportCut({
          dirhash,
          dropped,
          kept: await timeline.count(head, await refs.readShallow()),
          reason: 'prune',
          actor,
        });
      }
      const collected = await collectGarbage(store, refs, timeline, this.options.assertHeld, {
        keptTrees: this.options.keptTrees?.(),
      });
      const capped = await this.#enforceSizeCap();
      this.#noteCollected();
      const after = await measureStore(store.objectsDir);
      return {
        droppedCheckpoints: droppedCheckpoints + capped.droppedCheckpoints,
        droppedObjects: collected.droppedObjects + capped.droppedObjects,
        bytesBefore: before.bytes,
        bytesAfter: after.bytes,
      };
    });
  }

  /**
   * Stops the timer; waits for a running check. In one-shot processes that changed the store,
   * collects when the store got untidy: one that changed nothing (a tool call whose checkpoint found
   * nothing new, a listing) leaves the store as tidy as the process before it left it, and skips
   * the look (the store lock, its repair and a count of the objects: tens of milliseconds).
   */
  async dispose(): Promise<void> {
    this.#isDisposed = true;
    this.#quiet.dispose();
    await this.#quiet.running;
    if (!this.options.enabled && this.#hasChangedStore) await this.#maintainLogged();
  }

  /** What every retention cut must respect now: pinned checkpoints, those being restored, and the store lock. */
  async cutOptions(): Promise<CutOptions> {
    const pinned = new Set(await this.options.pinnedIds());
    for (const held of this.#holds.keys()) pinned.add(held);
    return { pinned, assertHeld: this.options.assertHeld };
  }

  async #check(): Promise<MaintenanceOutcome> {
    if (this.#holds.size > 0) {
      this.#isDeferred = true;
      return 'deferred';
    }
    const { store, refs, timeline, logger } = this.options;
    await this.#expireByAge();
    const usage = await measureStore(store.objectsDir, { estimateLoose: true });
    const isOverCap = usage.bytes > this.options.retention().maxTotalBytes;
    const isUntidy =
      usage.looseObjects > maxLooseObjects ||
      usage.packs > maxPacks ||
      this.#droppedSinceCollect > maxDroppedSinceCollect;
    if (!isUntidy && !isOverCap) return 'tidy';
    // Over the cap, collect first when garbage may be there: no checkpoint is dropped for space it holds.
    if (!isUntidy && !this.#mayHoldGarbage)
      return (await this.#enforceSizeCap()).droppedCheckpoints > 0 ? 'collected' : 'over-cap';
    const isMergeEnough = !isOverCap && !this.#mayHoldGarbage && usage.looseObjects <= maxLooseObjects;
    if (isMergeEnough && (await mergeSmallPacks(store, this.options.assertHeld)).merged > 0) return 'merged';
    const mayGiveWay =
      !isOverCap &&
      this.#gaveWayInARow < maxGiveWaysInARow &&
      usage.looseObjects <= maxLooseObjects * farBehindFactor &&
      usage.packs <= maxPacks * farBehindFactor;
    const shouldYield = (): boolean => this.#holds.size > 0 || this.options.isLockWanted();
    const collected = await collectGarbage(store, refs, timeline, this.options.assertHeld, {
      keptTrees: this.options.keptTrees?.(),
      ...(mayGiveWay ? { shouldYield } : {}),
    });
    if (collected.gaveWay) {
      this.#gaveWayInARow += 1;
      logger.info('checkpoint store maintenance gave way to waiting work; it runs again later', {
        looseObjects: usage.looseObjects,
        packs: usage.packs,
        inARow: this.#gaveWayInARow,
      });
      if (this.options.enabled && !this.#isDisposed) this.#quiet.request();
      return 'gave-way';
    }
    this.#gaveWayInARow = 0;
    this.#noteCollected();
    if (isOverCap) await this.#enforceSizeCap();
    return 'collected';
  }

  /** Brings the store under its size cap (see size-cap.ts); expired or dropped batches mean garbage to collect. */
  async #enforceSizeCap(): Promise<{ droppedCheckpoints: number; droppedObjects: number }> {
    return enforceSizeCap(this.options, () => this.cutOptions());
  }

  /** Lets dropped batches whose days are up leave the store (their objects go with the next collection). */
  async #expireByAge(): Promise<void> {
    const pinned = (await this.cutOptions()).pinned;
    const expired = await expireByAge(this.options.dropped(), pinned);
    if (expired > 0) this.options.logger.info('dropped checkpoints expired', { expired });
    this.noteDropped(expired);
  }
}
