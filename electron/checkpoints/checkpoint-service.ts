import type { PlainActor } from '../../shared/contract/actor-model';
import path from 'node:path';
import type { CheckpointApi, CheckpointServiceOptions } from './checkpoint-api';
import { resolveCheckpointDirectory } from './checkpoint-directory';
import { asAppError } from './checkpoint-errors';
import { CheckpointReader } from './checkpoint-reader';
import { checkCheckpointRequest } from './checkpoint-request';
import { defaultWorkerThreshold } from './checkpoint-tracking';
import type { CheckpointOutcome, CheckpointRequest, PruneReport } from './checkpoint-types';
import { CheckpointCut } from './maintenance/checkpoint-cut';
import { createCutReporter, type Cut } from './maintenance/cut-reporter';
import { StoreMaintenance, type MaintenanceOutcome } from './maintenance/store-maintenance';
import { takeSnapshot, type SnapshotEngine } from './snapshot/snapshot';
import { StatCacheSaver } from './snapshot/stat-cache-saver';
import { DeferredSyncs } from './snapshot/deferred-syncs';
import { StoreRules } from './snapshot/store-rules';
import type { TrackedDirectory } from './snapshot/tracked-directory';
import type { FolderChangeFeed } from './snapshot/folder-change-feed';
import type { VerificationOutcome, VerificationRules } from './snapshot/watch-verification';
import { dirHash } from '../git-store';
import { once } from '../lib';
import { setPin, type CheckpointSettings, type PinOutcome } from './store-views';
import { setName, type RenameOutcome } from './timeline/name-store';

export type { CheckpointApi, CheckpointServiceOptions } from './checkpoint-api';

export type { CheckpointSettings, PinOutcome } from './store-views';
export type { RenameOutcome } from './timeline/name-store';

/** How often a watching process compares each watched directory with the disk. */
const defaultVerifyEveryMs = 10 * 60_000;

/** The checkpoint engine: one shared git object store, a timeline per directory. */
export class CheckpointService extends CheckpointReader implements CheckpointApi {
  readonly #reportCut: (cut: Cut) => Promise<void>;
  readonly #maintenance: StoreMaintenance;
  readonly #cacheSaver: StatCacheSaver;

  constructor(options: CheckpointServiceOptions) {
    super(options);
    this.#reportCut = createCutReporter({
      registry: this.registry,
      cutLog: this.cutLog,
      retention: () => this.retention,
    });
    if (options.watch === true)
      this.watchers.startVerifying(
        options.verifyEveryMs ?? defaultVerifyEveryMs,
        () => this.tracked.values(),
        (tracked) => this.#verificationRules(tracked),
      );
    this.#cacheSaver = new StatCacheSaver({
      layout: this.layout,
      logger: options.logger,
      isOneShot: options.watch !== true,
      quietMs: options.statCacheQuietMs,
      underLock: (work) => this.lock.withLock(work),
      directories: () => this.tracked.values(),
    });
    this.#maintenance = new StoreMaintenance({
      enabled: options.maintenance ?? options.watch === true,
      logger: options.logger,
      run: (work) => this.#underStoreLock(work),
      store: this.store,
      refs: this.refs,
      timeline: this.timeline,
      retention: () => this.retention,
      pinnedIds: () => this.pins.ids(),
      reportCut: this.#reportCut,
      assertHeld: () => this.lock.assertHeld(),
      isLockWanted: () => this.lock.waitingInLine() > 0,
      keptTrees: () => [...this.tracked.values()].flatMap((tracked) => (tracked.warmed ? [tracked.warmed.tree] : [])),
      dropped: () => this.droppedContext(),
      timing: options.maintenanceTiming,
    });
  }

  /** Every change the directory watchers report, for caches that read folders again only where they changed (none in a one-shot process). */
  folderChanges(): FolderChangeFeed {
    return this.watchers.feed;
  }

  /** Takes new settings (config.json changed): the next checkpoint, cut and status use them. */
  updateSettings(settings: CheckpointSettings): void {
    this.settings = { retention: { ...settings.retention }, maxFileBytes: settings.maxFileBytes };
  }

  async checkpoint(dir: string, request: CheckpointRequest): Promise<CheckpointOutcome> {
    try {
      checkCheckpointRequest(request);
      const resolved = await resolveCheckpointDirectory(dir, await this.refused);
      const tracked = await this.tracked.track(resolved);
      const outcome = await this.#underStoreLock(() =>
        DeferredSyncs.run((syncs) => this.#held(tracked, request, syncs)),
      );
      if (outcome.kind !== 'unchanged') this.#maintenance.noteStoreChanged();
      if (outcome.kind === 'created') this.announcer.created(outcome.checkpoint);
      this.#maintenance.schedule();
      return outcome;
    } catch (error) {
      throw asAppError(error, this.options.logger, `checkpoint ${dir}`);
    }
  }

  /** A checkpoint's work under the lock; its ref folder's fsync (`syncs`) settles before the lock is let go. */
  async #held(tracked: TrackedDirectory, request: CheckpointRequest, syncs: DeferredSyncs): Promise<CheckpointOutcome> {
    // The answer is for the folder as it is now: the watcher first reports every change made before this call.
    if (tracked.isWatched) await this.watchers.catchUp(tracked);
    const rules = await this.rules.forSnapshot(tracked);
    // Read once for this hold: the commit's entry and the cut after it see the same list.
    const heldShallow = once(() => this.refs.readShallow());
    const cut = new CheckpointCut({
      refs: this.refs,
      timeline: this.timeline,
      dirhash: tracked.dirhash,
      maxSnapshots: this.retention.maxSnapshots,
      shallow: heldShallow,
      options: () => this.#maintenance.cutOptions(),
      report: this.#reportCut,
    });
    // A walk that meets other nested repositories than the rules know rebuilds them (and walks again).
    const rediscover = this.rules.rediscoverer(tracked);
    const engine = { ...this.#engine(), rules, heldShallow, deferSync: syncs.add, cut, rediscover };
    const result = await takeSnapshot(engine, tracked, request);
    // Still held: a one-shot process saves its stat cache (CPU) beside the cut's report; it never fails the checkpoint.
    const saving = this.#cacheSaver.afterSnapshot(tracked);
    try {
      if (result.kind === 'created') this.#maintenance.noteDropped(await cut.report());
    } finally {
      await saving;
    }
    return result;
  }

  /**
   * Compares each watched directory (or `dir` only) with the disk now, as the background timer does
   * every ten minutes: a change the watcher missed is repaired and logged as a defect.
   */
  async verifyWatched(dir?: string): Promise<readonly VerificationOutcome[]> {
    const only = dir === undefined ? undefined : dirHash(path.resolve(dir));
    const targets = [...this.tracked.values()].filter((tracked) => only === undefined || tracked.dirhash === only);
    const outcomes: VerificationOutcome[] = [];
    for (const tracked of targets)
      outcomes.push(await this.watchers.verify(tracked, await this.#verificationRules(tracked)));
    return outcomes;
  }

  async #verificationRules(tracked: TrackedDirectory): Promise<VerificationRules> {
    const store = await this.rules.forSnapshot(tracked);
    return { maxFileBytes: this.maxFileBytes, ignoredFolders: this.ignoredFolders(), store };
  }

  /** Looks at the store now, as the background timer does (see StoreMaintenance.maintain). */
  async maintain(): Promise<MaintenanceOutcome> {
    await this.ensureReady();
    return this.#maintenance.maintain();
  }

  async prune(actor?: PlainActor): Promise<PruneReport> {
    await this.ensureReady();
    try {
      return await this.#maintenance.prune(actor);
    } catch (error) {
      throw asAppError(error, this.options.logger, 'prune the checkpoint store');
    }
  }

  /** Pins checkpoint `ref` (a number from the list, or an id) of `dir`, or unpins it: retention and the size cap never drop a pinned one. */
  async pin(dir: string, ref: string, isPinned: boolean): Promise<PinOutcome> {
    try {
      const outcome = await this.withStoreLock(() => setPin(this.views(), dir, ref, isPinned));
      if (outcome.changed) {
        this.options.logger.info(isPinned ? 'checkpoint pinned' : 'checkpoint unpinned', {
          dir: outcome.dir,
          id: outcome.id,
        });
        this.announcer.pinChanged({ dir: outcome.dir, id: outcome.id, isPinned });
      }
      return outcome;
    } catch (error) {
      throw asAppError(error, this.options.logger, `${isPinned ? 'pin' : 'unpin'} a checkpoint of ${dir}`);
    }
  }

  /** Names checkpoint `ref` of `dir`, renames it, or (`''`) takes its name away; kept beside the commit, which never changes. */
  async rename(dir: string, ref: string, name: string): Promise<RenameOutcome> {
    try {
      const outcome = await this.withStoreLock(() => setName(this.queries(), this.names, dir, ref, name));
      if (outcome.changed) this.announcer.renamed({ dir: outcome.dir, id: outcome.id, name: outcome.name });
      return outcome;
    } catch (error) {
      throw asAppError(error, this.options.logger, `rename a checkpoint of ${dir}`);
    }
  }

  /**
   * Gets ready to checkpoint `dir` soon (a one-shot `vigil checkpoint DIR`, while its core is still
   * being built): tracks it, which for a big tree starts the hashing workers, so that their start
   * overlaps the rest. Changes nothing on disk; a directory that cannot be checkpointed is left for
   * the checkpoint call to report. A watching engine does nothing here (tracking would watch `dir`).
   */
  async prepare(dir: string): Promise<void> {
    if (this.options.watch === true) return;
    const resolved = await resolveCheckpointDirectory(dir, await this.refused).catch(() => undefined);
    if (resolved !== undefined && !this.isDisposed) await this.tracked.track(resolved);
  }

  /**
   * In a watching (resident) engine, starts the first snapshot of `dir` now when its timeline is
   * empty (a session just opened there): the walk and the hashing run, their objects are stored and
   * the state is kept, but nothing is committed, so the first checkpoint only looks at what changed
   * since. Resolves when it is done; never rejects (a failure only leaves the work to that checkpoint).
   */
  async warmUp(dir: string): Promise<void> {
    if (this.options.watch !== true || this.isDisposed) return;
    try {
      const resolved = await resolveCheckpointDirectory(dir, await this.refused).catch(() => undefined);
      if (resolved === undefined || (await this.refs.read(dirHash(resolved))) !== undefined) return;
      const tracked = await this.tracked.track(resolved);
      await this.withStoreLock(async () => {
        if (this.isDisposed || tracked.state !== undefined || (await this.refs.read(tracked.dirhash)) !== undefined)
          return;
        await this.watchers.catchUp(tracked);
        const rules = await this.rules.snapshotRules(tracked);
        await takeSnapshot({ ...this.#engine(), ...rules }, tracked, { reason: 'warm-up' }, { isWarmUp: true });
        // Not saved: a stat cache names no warmed tree, and another process's collection would not keep its objects.
        tracked.isCacheStale = false;
      });
    } catch (error) {
      this.options.logger.warn(
        'could not start the first snapshot of a folder a session opened in; its first checkpoint takes it',
        { dir, error },
      );
    }
  }

  /** In a watching engine, watches `dir` from now on, so changes there are reported (a live comparison stays current). */
  async watchLive(dir: string): Promise<void> {
    if (this.options.watch !== true) return;
    const resolved = await resolveCheckpointDirectory(dir, await this.refused).catch(() => undefined);
    if (resolved !== undefined) await this.tracked.track(resolved);
  }

  noteWritten(paths: readonly string[]): void {
    this.tracked.noteWritten(paths);
  }

  async withStoreLock<T>(fn: () => Promise<T>): Promise<T> {
    // Whatever a caller does under the lock may change the store (a one-shot process then looks at it before it exits).
    this.#maintenance.noteStoreChanged();
    return this.#underStoreLock(fn);
  }

  /** The store lock for this engine's own work: a checkpoint, which says itself whether it changed the store, and maintenance. */
  async #underStoreLock<T>(fn: () => Promise<T>): Promise<T> {
    // Opened (and repaired) first, also under a hold this context already has (a one-shot
    // checkpoint's walk head start takes the lock before this engine exists): re-entered then.
    await this.ensureReady();
    if (this.lock.isHeldHere()) return fn();
    return this.lock.withLock(async () => {
      await this.store.refresh();
      return fn();
    });
  }

  async duringRestore<T>(checkpointId: string, task: () => Promise<T>): Promise<T> {
    const release = this.#maintenance.hold(checkpointId);
    try {
      return await task();
    } finally {
      release();
    }
  }

  async dispose(): Promise<void> {
    if (this.isDisposed) return;
    this.isDisposed = true;
    await this.watchers.dispose();
    await this.#maintenance.dispose();
    await this.#cacheSaver.flush();
    await this.pool.dispose();
    await this.store.close();
  }

  #engine(): SnapshotEngine {
    return {
      layout: this.layout,
      store: this.store,
      refs: this.refs,
      registry: this.registry,
      timeline: this.timeline,
      pool: this.pool,
      maxFileBytes: this.maxFileBytes,
      workerThreshold: this.options.workerThreshold ?? defaultWorkerThreshold,
      ignoredFolders: this.ignoredFolders(),
      rules: StoreRules.builtIn,
      assertLockHeld: () => this.lock.assertHeld(),
    };
  }
}
