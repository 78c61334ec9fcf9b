import type { PlainActor } from '../../shared/contract/actor-model';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { isVigilBookkeepingFile } from '../files/vigil-temp-name';
import { FileLock } from '../locks/file-lock';
import { defaultRefusedDirs, resolveCheckpointDirectory, resolveTimelineDirectory } from './checkpoint-directory';
import {
  countCheckpoints,
  droppedCheckpoints,
  listCheckpoints,
  listDirectories,
  resolveCheckpoint,
  type QueryContext,
} from './checkpoint-queries';
import type {
  CheckpointDirectory,
  CheckpointEntry,
  CheckpointOutcome,
  CheckpointRequest,
  DroppedList,
  ListOptions,
  PruneReport,
  RetentionPolicy,
  StoreStatus,
  StoredTreeEntry,
} from './checkpoint-types';
import { asAppError } from './checkpoint-errors';
import { AnnouncedCheckpoints } from './timeline/announced-checkpoints';
import { CutLog, cutLogFile } from './maintenance/cut-log';
import { defaultKeepDroppedDays, type DroppedContext } from './maintenance/dropped-area';
import { createCutReporter, type Cut } from './maintenance/cut-reporter';
import { PinStore, pinFile } from './timeline/pin-store';
import { markNamed, NameStore, setName, type RenameOutcome } from './timeline/name-store';
import {
  cutAfterCheckpoint,
  markPinned,
  readStoreStatus,
  setPin,
  type CheckpointSettings,
  type PinOutcome,
  type StoreViewContext,
} from './store-views';
import { checkCheckpointRequest } from './checkpoint-request';
import { DirRegistry } from './timeline/dir-registry';
import { DirectoryRules, summarizeRules } from './snapshot/directory-rules';
import type { LoadedRules } from './snapshot/repo-rules';
import { StoreRules } from './snapshot/store-rules';
import { isObjectId } from './store/git-objects';
import { defaultWorkerCount, HashWorkerPool } from './snapshot/hash-worker-pool';
import { StoreMaintenance, type MaintenanceOutcome } from './maintenance/store-maintenance';
import { ObjectStore } from './store/object-store';
import { RefStore } from './store/ref-store';
import { defaultMaxFileBytes, defaultRetention } from './maintenance/retention';
import { takeSnapshot, type SnapshotEngine } from './snapshot/snapshot';
import { StatCacheSaver } from './snapshot/stat-cache-saver';
import { repairStore } from './maintenance/store-repair';
import { dirHash, ignoredFoldersOf, statCacheFile, storeLayout, type StoreLayout } from './store/store-layout';
import { Timeline } from './timeline/timeline';
import { TrackedDirectory } from './snapshot/tracked-directory';
import { DirectoryWatchers } from './snapshot/directory-watchers';
import type { VerificationOutcome, VerificationRules } from './snapshot/watch-verification';
import { watchStatusOf } from './snapshot/watch-status';
import type { CheckpointApi, CheckpointServiceOptions } from './checkpoint-api';
import { knownHashesOf, type KnownHashes } from './diff/diff-known-hashes';

export type { CheckpointApi, CheckpointServiceOptions } from './checkpoint-api';

export type { CheckpointSettings, PinOutcome } from './store-views';
export type { RenameOutcome } from './timeline/name-store';

/** From this many files to walk or hash on, the worker threads do it. */
const defaultWorkerThreshold = 2_000;
/** How often a watching process compares each watched directory with the disk. */
const defaultVerifyEveryMs = 10 * 60_000;
/** A stat cache takes about this many bytes per file (stat, blob id, name): its size tells a tree's size before it is read. */
const statCacheBytesPerFile = 64;

/** The checkpoint engine: one shared git object store, a timeline per directory. */
export class CheckpointService implements CheckpointApi {
  readonly gitdir: string;
  #settings: CheckpointSettings;
  readonly #options: CheckpointServiceOptions;
  readonly #pins: PinStore;
  readonly #names: NameStore;
  readonly #cutLog: CutLog;
  readonly #reportCut: (cut: Cut) => Promise<void>;
  readonly #announced: AnnouncedCheckpoints;
  readonly #layout: StoreLayout;
  readonly #store: ObjectStore;
  readonly #refs: RefStore;
  readonly #registry: DirRegistry;
  readonly #timeline: Timeline;
  readonly #pool: HashWorkerPool;
  readonly #lock: FileLock;
  readonly #tracked = new Map<string, TrackedDirectory>();
  readonly #watchers: DirectoryWatchers;
  readonly #maintenance: StoreMaintenance;
  #ready: Promise<void> | undefined;
  #refused: Promise<readonly string[]>;
  readonly #cacheSaver: StatCacheSaver;
  readonly #rules: DirectoryRules;
  #isDisposed = false;

  constructor(options: CheckpointServiceOptions) {
    this.#options = options;
    this.#layout = storeLayout(options.root);
    this.gitdir = this.#layout.gitdir;
    this.#settings = {
      retention: { ...defaultRetention, ...options.retention },
      maxFileBytes: options.maxFileBytes ?? defaultMaxFileBytes,
    };
    this.#pins = new PinStore(pinFile(options.root));
    this.#names = new NameStore(options.root);
    this.#cutLog = new CutLog(cutLogFile(options.root), options.logger, options.events);
    this.#announced = new AnnouncedCheckpoints(options.events);
    this.#store = new ObjectStore(this.gitdir, options.onSynced);
    this.#refs = new RefStore(this.gitdir, options.onSynced);
    this.#registry = new DirRegistry(this.#layout);
    this.#timeline = new Timeline(this.#store);
    this.#pool = new HashWorkerPool(this.gitdir, options.workers ?? defaultWorkerCount(options.watch !== true));
    this.#refused = options.refusedDirs === undefined ? defaultRefusedDirs() : Promise.resolve(options.refusedDirs);
    this.#lock = new FileLock({
      path: this.#layout.lockPath,
      resource: 'the checkpoint store',
      onTakeover: async (abandoned, reason) => {
        options.logger.warn('taking over the checkpoint store lock', { reason, holder: abandoned });
        await repairStore(this.#repairContext(), abandoned === undefined ? 0 : Date.parse(abandoned.acquiredAt));
      },
    });
    this.#reportCut = createCutReporter({
      registry: this.#registry,
      cutLog: this.#cutLog,
      retention: () => this.retention,
    });
    this.#watchers = new DirectoryWatchers({ logger: options.logger, onDirectoryChanged: options.onDirectoryChanged });
    this.#rules = new DirectoryRules(options.logger, options.rulesEnvironment ?? { env: process.env });
    if (options.watch === true)
      this.#watchers.startVerifying(
        options.verifyEveryMs ?? defaultVerifyEveryMs,
        () => this.#tracked.values(),
        (tracked) => this.#verificationRules(tracked),
      );
    this.#cacheSaver = new StatCacheSaver({
      layout: this.#layout,
      logger: options.logger,
      isOneShot: options.watch !== true,
      quietMs: options.statCacheQuietMs,
      underLock: (work) => this.#lock.withLock(work),
      directories: () => this.#tracked.values(),
    });
    this.#maintenance = new StoreMaintenance({
      enabled: options.maintenance ?? options.watch === true,
      logger: options.logger,
      run: (work) => this.withStoreLock(work),
      store: this.#store,
      refs: this.#refs,
      timeline: this.#timeline,
      retention: () => this.retention,
      pinnedIds: () => this.#pins.ids(),
      reportCut: this.#reportCut,
      assertHeld: () => this.#lock.assertHeld(),
      isLockWanted: () => this.#lock.waitingInLine() > 0,
      dropped: () => this.#droppedContext(),
    });
  }

  /** The retention policy in force. */
  get retention(): RetentionPolicy {
    return this.#settings.retention;
  }

  /** Files larger than this are skipped (and recorded). */
  get maxFileBytes(): number {
    return this.#settings.maxFileBytes;
  }

  /** Takes new settings (config.json changed): the next checkpoint, cut and status use them. */
  updateSettings(settings: CheckpointSettings): void {
    this.#settings = { retention: { ...settings.retention }, maxFileBytes: settings.maxFileBytes };
  }

  async checkpoint(dir: string, request: CheckpointRequest): Promise<CheckpointOutcome> {
    try {
      checkCheckpointRequest(request);
      const resolved = await resolveCheckpointDirectory(dir, await this.#refused);
      const tracked = await this.#track(resolved);
      const outcome = await this.withStoreLock(async () => {
        // The answer is for the folder as it is now: the watcher first reports every change made before this call.
        if (tracked.isWatched) await this.#watchers.catchUp(tracked);
        const rules = await this.#rules.forSnapshot(tracked);
        const result = await takeSnapshot({ ...this.#engine(), rules }, tracked, request);
        // Still under this hold: a one-shot process saves its stat cache without taking the lock
        // again. The state is final and a retention cut moves no head, so the save (CPU) runs
        // beside the cut (reads of the timeline); it never fails the checkpoint.
        const saving = this.#cacheSaver.afterSnapshot(tracked);
        try {
          if (result.kind === 'created') {
            const options = await this.#maintenance.cutOptions();
            this.#maintenance.noteDropped(
              await cutAfterCheckpoint(this.#views(), {
                dirhash: tracked.dirhash,
                head: result.checkpoint.id,
                options,
                report: this.#reportCut,
              }),
            );
          }
        } finally {
          await saving;
        }
        return result;
      });
      if (outcome.kind === 'created') this.#announced.announce(outcome.checkpoint);
      this.#maintenance.schedule();
      return outcome;
    } catch (error) {
      throw asAppError(error, this.#options.logger, `checkpoint ${dir}`);
    }
  }

  async list(dir: string, options: ListOptions = {}): Promise<readonly CheckpointEntry[]> {
    // The engine holds Vigil's checkpoints only; Hermes's are merged in by a view over it.
    if (options.source === 'hermes') return [];
    const [entries, pins] = await Promise.all([
      this.#read(dir, 'list checkpoints', (context, resolved) => listCheckpoints(context, resolved, options)),
      this.#pins.ids(),
    ]);
    const names = entries[0] === undefined ? new Map<string, string>() : await this.#names.of(dirHash(entries[0].dir));
    return markNamed(markPinned(entries, pins), names);
  }

  async count(dir: string, options: Pick<ListOptions, 'source'> = {}): Promise<number> {
    if (options.source === 'hermes') return 0;
    return this.#read(dir, 'count checkpoints', countCheckpoints);
  }

  async resolve(dir: string, ref: string): Promise<CheckpointEntry> {
    return this.#read(dir, 'find the checkpoint', (context, resolved) => resolveCheckpoint(context, resolved, ref));
  }

  async dropped(dir: string): Promise<DroppedList> {
    const entries = await this.#read(dir, 'list the dropped checkpoints', droppedCheckpoints);
    const resolved = await resolveTimelineDirectory(dir);
    return { dir: resolved, keepDroppedDays: this.#droppedContext().keepDroppedDays, entries };
  }

  async directories(): Promise<readonly CheckpointDirectory[]> {
    await this.#ensureReady();
    return listDirectories(this.#queries()).catch((error: unknown) => {
      throw asAppError(error, this.#options.logger, 'list the checkpointed directories');
    });
  }

  async status(dir?: string): Promise<StoreStatus> {
    await this.#ensureReady();
    try {
      const status = await readStoreStatus(this.#views(), dir);
      const isWatching = this.#options.watch === true;
      const directories = await Promise.all(
        status.directories.map(async (item) => ({
          ...(item.exists ? { ...item, rules: summarizeRules(await this.#rules.current(item.dir)) } : item),
          watch: watchStatusOf(this.#tracked.get(item.dirhash), isWatching),
        })),
      );
      return { ...status, directories };
    } catch (error) {
      throw asAppError(error, this.#options.logger, 'read the store status');
    }
  }

  /**
   * Compares each watched directory (or `dir` only) with the disk now, as the background timer does
   * every ten minutes: a change the watcher missed is repaired and logged as a defect.
   */
  async verifyWatched(dir?: string): Promise<readonly VerificationOutcome[]> {
    const only = dir === undefined ? undefined : dirHash(path.resolve(dir));
    const targets = [...this.#tracked.values()].filter((tracked) => only === undefined || tracked.dirhash === only);
    const outcomes: VerificationOutcome[] = [];
    for (const tracked of targets)
      outcomes.push(await this.#watchers.verify(tracked, await this.#verificationRules(tracked)));
    return outcomes;
  }

  async #verificationRules(tracked: TrackedDirectory): Promise<VerificationRules> {
    const store = await this.#rules.forSnapshot(tracked);
    return { maxFileBytes: this.maxFileBytes, ignoredFolders: this.#ignoredFolders(), store };
  }

  /** Looks at the store now, as the background timer does (see StoreMaintenance.maintain). */
  async maintain(): Promise<MaintenanceOutcome> {
    await this.#ensureReady();
    return this.#maintenance.maintain();
  }

  async prune(actor?: PlainActor): Promise<PruneReport> {
    await this.#ensureReady();
    try {
      return await this.#maintenance.prune(actor);
    } catch (error) {
      throw asAppError(error, this.#options.logger, 'prune the checkpoint store');
    }
  }

  /** Pins checkpoint `ref` (a number from the list, or an id) of `dir`, or unpins it: retention and the size cap never drop a pinned one. */
  async pin(dir: string, ref: string, isPinned: boolean): Promise<PinOutcome> {
    try {
      const outcome = await this.withStoreLock(() => setPin(this.#views(), dir, ref, isPinned));
      if (outcome.changed) {
        this.#options.logger.info(isPinned ? 'checkpoint pinned' : 'checkpoint unpinned', {
          dir: outcome.dir,
          id: outcome.id,
        });
        this.#options.events?.emit('checkpoints:pin-changed', { dir: outcome.dir, id: outcome.id, isPinned });
      }
      return outcome;
    } catch (error) {
      throw asAppError(error, this.#options.logger, `${isPinned ? 'pin' : 'unpin'} a checkpoint of ${dir}`);
    }
  }

  /** Names checkpoint `ref` of `dir`, renames it, or (`''`) takes its name away; kept beside the commit, which never changes. */
  async rename(dir: string, ref: string, name: string): Promise<RenameOutcome> {
    try {
      const outcome = await this.withStoreLock(() => setName(this.#queries(), this.#names, dir, ref, name));
      if (outcome.changed)
        this.#options.events?.emit('checkpoints:renamed', {
          dir: outcome.dir,
          id: outcome.id,
          name: outcome.name,
        });
      return outcome;
    } catch (error) {
      throw asAppError(error, this.#options.logger, `rename a checkpoint of ${dir}`);
    }
  }

  /**
   * Gets ready to checkpoint `dir` soon (a one-shot `vigil checkpoint DIR`, while its core is still
   * being built): tracks it, which for a big tree starts the hashing workers, so that their start
   * overlaps the rest. Changes nothing on disk; a directory that cannot be checkpointed is left for
   * the checkpoint call to report. A watching engine does nothing here (tracking would watch `dir`).
   */
  async prepare(dir: string): Promise<void> {
    if (this.#options.watch === true) return;
    const resolved = await resolveCheckpointDirectory(dir, await this.#refused).catch(() => undefined);
    if (resolved !== undefined && !this.#isDisposed) await this.#track(resolved);
  }

  /** In a watching engine, watches `dir` from now on, so changes there are reported (a live comparison stays current). */
  async watchLive(dir: string): Promise<void> {
    if (this.#options.watch !== true) return;
    const resolved = await resolveCheckpointDirectory(dir, await this.#refused).catch(() => undefined);
    if (resolved !== undefined) await this.#track(resolved);
  }

  /** Announces checkpoints another process took (found by the store watcher), each once. */
  announce(entries: readonly CheckpointEntry[]): number {
    return entries.filter((entry) => this.#announced.announce(entry)).length;
  }

  /** The head of every timeline, by directory hash (what the store watcher compares). */
  async heads(): Promise<Map<string, string>> {
    await this.#ensureReady();
    return this.#refs.list();
  }

  /** The directory a timeline belongs to, from the registry. */
  async directoryOf(dirhash: string): Promise<string | undefined> {
    return (await this.#registry.read(dirhash))?.workdir;
  }

  /** The record of cuts (the store watcher reads what other processes appended). */
  get cutLog(): CutLog {
    return this.#cutLog;
  }

  async readTree(treeOid: string): Promise<readonly StoredTreeEntry[]> {
    if (!isObjectId(treeOid))
      throw new AppError('invalid_request', `"${treeOid}" is not a tree id (40 hex characters).`, { field: 'tree' });
    return this.#store.readTree(treeOid);
  }

  async readBlob(oid: string): Promise<Uint8Array> {
    if (!isObjectId(oid))
      throw new AppError('invalid_request', `"${oid}" is not a blob id (40 hex characters).`, { field: 'oid' });
    return this.#store.readTyped(oid, 'blob');
  }

  noteWritten(paths: readonly string[]): void {
    for (const written of paths) {
      const absolute = path.resolve(written);
      for (const tracked of this.#tracked.values()) tracked.markDirty(absolute);
    }
  }

  knownHashes(dir: string): KnownHashes | undefined {
    const state = this.#tracked.get(dirHash(dir))?.state;
    return state === undefined ? undefined : knownHashesOf(state);
  }

  isExcluded(dir: string, relativePath: string): boolean {
    const rules = this.#rules.lastKnown(dir) ?? StoreRules.builtIn;
    return (
      rules.pathExclusion(relativePath, false) !== undefined || isVigilBookkeepingFile(path.basename(relativePath))
    );
  }

  async storeRules(dir: string): Promise<LoadedRules> {
    return this.#rules.current(path.resolve(dir));
  }

  async withStoreLock<T>(fn: () => Promise<T>): Promise<T> {
    // Opened (and repaired) first, also under a hold this context already has (a one-shot
    // checkpoint's walk head start takes the lock before this engine exists): re-entered then.
    await this.#ensureReady();
    if (this.#lock.isHeldHere()) return fn();
    return this.#lock.withLock(async () => {
      await this.#store.refresh();
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
    if (this.#isDisposed) return;
    this.#isDisposed = true;
    await this.#watchers.dispose();
    await this.#maintenance.dispose();
    await this.#cacheSaver.flush();
    await this.#pool.dispose();
    await this.#store.close();
  }

  /** The directory's tracker, created (and its watcher started) on first use. */
  async #track(dir: string): Promise<TrackedDirectory> {
    const dirhash = dirHash(dir);
    let tracked = this.#tracked.get(dirhash);
    if (tracked === undefined) {
      tracked = new TrackedDirectory(dir, dirhash);
      this.#tracked.set(dirhash, tracked);
      if (this.#options.watch === true) await this.#watchers.watch(tracked, this.#ignoredFolders());
      else if (!this.#adoptHeadStart(tracked)) this.#prestartForBigTree(dirhash);
    }
    return tracked;
  }

  /**
   * Takes over the walk begun before this engine was built, when it walked this directory with
   * this store's lock, ignored folders and file size cap (its first snapshot then uses it, if the
   * lock is still held under the same hold); its workers become this engine's.
   */
  #adoptHeadStart(tracked: TrackedDirectory): boolean {
    const headStart = this.#options.headStart;
    if (
      headStart === undefined ||
      headStart.dir !== tracked.dir ||
      path.resolve(headStart.lockPath) !== path.resolve(this.#layout.lockPath) ||
      headStart.maxFileBytes !== this.maxFileBytes ||
      headStart.ignoredFolders.join('\0') !== this.#ignoredFolders().join('\0')
    )
      return false;
    tracked.headStart = headStart;
    this.#pool.adopt(headStart.pool);
    return true;
  }

  /**
   * A one-shot process walks a big tree in the workers: when the directory's stat cache says it is
   * big, they start now, while the store is opened and the cache read, not after.
   */
  #prestartForBigTree(dirhash: string): void {
    const threshold = this.#options.workerThreshold ?? defaultWorkerThreshold;
    void stat(statCacheFile(this.#layout, dirhash)).then(
      (info) => {
        if (info.size >= threshold * statCacheBytesPerFile && !this.#isDisposed) this.#pool.prestart();
      },
      () => undefined,
    );
  }

  async #read<T>(
    dir: string,
    action: string,
    query: (context: QueryContext, resolved: string) => Promise<T>,
  ): Promise<T> {
    try {
      await this.#ensureReady();
      return await query(this.#queries(), await resolveTimelineDirectory(dir));
    } catch (error) {
      throw asAppError(error, this.#options.logger, action);
    }
  }

  /** Creates the store when missing and, once per process, clears what an interrupted writer left. */
  #ensureReady(): Promise<void> {
    this.#ready ??= (async () => {
      await this.#lock.withLock(async () => {
        await this.#refs.init();
        await Promise.all([
          mkdir(this.#layout.registryDir, { recursive: true }),
          mkdir(this.#layout.statDir, { recursive: true }),
        ]);
        await repairStore(this.#repairContext());
      });
    })().catch((error: unknown) => {
      this.#ready = undefined;
      throw asAppError(error, this.#options.logger, 'open the checkpoint store');
    });
    return this.#ready;
  }

  #engine(): SnapshotEngine {
    return {
      layout: this.#layout,
      store: this.#store,
      refs: this.#refs,
      registry: this.#registry,
      timeline: this.#timeline,
      pool: this.#pool,
      maxFileBytes: this.maxFileBytes,
      workerThreshold: this.#options.workerThreshold ?? defaultWorkerThreshold,
      ignoredFolders: this.#ignoredFolders(),
      rules: StoreRules.builtIn,
      assertLockHeld: () => this.#lock.assertHeld(),
    };
  }

  /** Vigil's own folders, never stored: the checkpoints folder and, in the usual layout, the whole data folder. */
  #ignoredFolders(): string[] {
    return ignoredFoldersOf(this.#layout.root);
  }

  #queries(): QueryContext {
    return {
      layout: this.#layout,
      refs: this.#refs,
      registry: this.#registry,
      timeline: this.#timeline,
      dropped: this.#droppedContext(),
    };
  }

  #droppedContext(): DroppedContext {
    return {
      root: this.#options.root,
      refs: this.#refs,
      timeline: this.#timeline,
      keepDroppedDays: this.retention.keepDroppedDays ?? defaultKeepDroppedDays,
    };
  }

  #views(): StoreViewContext {
    return {
      ...this.#queries(),
      gitdir: this.gitdir,
      store: this.#store,
      pins: this.#pins,
      cutLog: this.#cutLog,
      settings: this.#settings,
    };
  }

  #repairContext(): Parameters<typeof repairStore>[0] {
    return {
      layout: this.#layout,
      store: this.#store,
      refs: this.#refs,
      timeline: this.#timeline,
      logger: this.#options.logger,
      assertHeld: () => this.#lock.assertHeld(),
    };
  }
}
