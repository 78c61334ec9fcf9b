import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { isVigilBookkeepingFile } from '../files';
import { FileLock } from '../locks';
import type { CheckpointServiceOptions } from './checkpoint-api';
import { defaultRefusedDirs, resolveTimelineDirectory } from './checkpoint-directory';
import { asAppError } from './checkpoint-errors';
import {
  countCheckpoints,
  droppedCheckpoints,
  listCheckpoints,
  listDirectories,
  resolveCheckpoint,
  type QueryContext,
} from './checkpoint-queries';
import { TrackedDirectories } from './checkpoint-tracking';
import type {
  CheckpointDirectory,
  CheckpointEntry,
  DroppedList,
  ListOptions,
  RetentionPolicy,
  StoreStatus,
  StoredTreeEntry,
} from './checkpoint-types';
import { CheckpointAnnouncer } from './events/checkpoint-announcer';
import type { KnownHashes } from './snapshot/known-hashes';
import { CutLog, cutLogFile } from './maintenance/cut-log';
import { defaultKeepDroppedDays, type DroppedContext } from './maintenance/dropped-area';
import { defaultMaxFileBytes, defaultRetention } from './maintenance/retention';
import { repairStore } from './maintenance/store-repair';
import { DirectoryRules, summarizeRules } from './snapshot/directory-rules';
import { DirectoryWatchers } from './snapshot/directory-watchers';
import { HashWorkerPool } from './snapshot/hash-worker-pool';
import { defaultWorkerCount } from './snapshot/hash-worker-thread';
import type { LoadedRules } from './snapshot/repo-rules';
import { StoreRules } from './snapshot/store-rules';
import { watchStatusOf } from './snapshot/watch-status';
import {
  dirHash,
  ignoredFoldersOf,
  isObjectId,
  ObjectStore,
  RefStore,
  realIgnoredFoldersOf,
  storeLayout,
  type StoreLayout,
} from '../git-store';
import { markPinned, readStoreStatus, type CheckpointSettings, type StoreViewContext } from './store-views';
import { DirRegistry } from './timeline/dir-registry';
import { markNamed, NameStore } from './timeline/name-store';
import { PinStore, pinFile } from './timeline/pin-store';
import { Timeline } from './timeline/timeline';

/**
 * The checkpoint engine's read side: the store, its opening and repair, every query (the service adds the writes).
 */
export class CheckpointReader {
  readonly gitdir: string;
  protected settings: CheckpointSettings;
  protected readonly options: CheckpointServiceOptions;
  protected readonly pins: PinStore;
  protected readonly names: NameStore;
  readonly #cutLog: CutLog;
  /** The one emitter of this engine's `checkpoints:*` events (the store watcher announces through it too). */
  readonly announcer: CheckpointAnnouncer;
  protected readonly layout: StoreLayout;
  protected readonly store: ObjectStore;
  protected readonly refs: RefStore;
  protected readonly registry: DirRegistry;
  protected readonly timeline: Timeline;
  protected readonly pool: HashWorkerPool;
  protected readonly lock: FileLock;
  protected readonly tracked: TrackedDirectories;
  protected readonly watchers: DirectoryWatchers;
  protected readonly rules: DirectoryRules;
  protected readonly refused: Promise<readonly string[]>;
  protected isDisposed = false;
  #ready: Promise<void> | undefined;
  #ignoredFolders: string[] | undefined;

  constructor(options: CheckpointServiceOptions) {
    this.options = options;
    this.layout = storeLayout(options.root);
    this.gitdir = this.layout.gitdir;
    this.settings = {
      retention: { ...defaultRetention, ...options.retention },
      maxFileBytes: options.maxFileBytes ?? defaultMaxFileBytes,
    };
    this.pins = new PinStore(pinFile(options.root));
    this.names = new NameStore(options.root);
    this.announcer = new CheckpointAnnouncer(options.events);
    this.#cutLog = new CutLog(cutLogFile(options.root), options.logger, this.announcer);
    this.store = new ObjectStore(this.gitdir, options.onSynced);
    this.refs = new RefStore(this.gitdir, options.onSynced);
    this.registry = new DirRegistry(this.layout);
    this.timeline = new Timeline(this.store);
    this.pool = new HashWorkerPool(this.gitdir, options.workers ?? defaultWorkerCount(options.watch !== true));
    this.refused = options.refusedDirs === undefined ? defaultRefusedDirs() : Promise.resolve(options.refusedDirs);
    this.lock = new FileLock({
      path: this.layout.lockPath,
      resource: 'the checkpoint store',
      onHoldEnding: () => this.store.endHold(), // handles kept for fsyncs are good for one hold only
      onTakeover: async (abandoned, reason) => {
        options.logger.warn('taking over the checkpoint store lock', { reason, holder: abandoned });
        await repairStore(this.repairContext(), abandoned === undefined ? 0 : Date.parse(abandoned.acquiredAt));
      },
    });
    this.watchers = new DirectoryWatchers({ logger: options.logger, onDirectoryChanged: options.onDirectoryChanged });
    this.rules = new DirectoryRules(options.logger, options.rulesEnvironment, options.headStart?.rules, this.layout);
    this.tracked = new TrackedDirectories({
      options,
      layout: this.layout,
      pool: this.pool,
      watchers: this.watchers,
      maxFileBytes: () => this.maxFileBytes,
      ignoredFolders: () => this.ignoredFolders(),
      isDisposed: () => this.isDisposed,
    });
  }

  /** The retention policy in force. */
  get retention(): RetentionPolicy {
    return this.settings.retention;
  }

  /** Files larger than this are skipped (and recorded). */
  get maxFileBytes(): number {
    return this.settings.maxFileBytes;
  }

  /** The record of cuts (the store watcher reads what other processes appended). */
  get cutLog(): CutLog {
    return this.#cutLog;
  }

  async list(dir: string, options: ListOptions = {}): Promise<readonly CheckpointEntry[]> {
    // The engine holds Vigil's checkpoints only; Hermes's are merged in by a view over it.
    if (options.source === 'hermes') return [];
    const listed = this.#read(dir, 'list checkpoints', (context, at) => listCheckpoints(context, at, options), options);
    if (options.isBare === true) return listed;
    const [entries, pins] = await Promise.all([listed, this.pins.ids()]);
    const names = entries[0] === undefined ? new Map<string, string>() : await this.names.of(dirHash(entries[0].dir));
    return markNamed(markPinned(entries, pins), names);
  }

  async count(dir: string, options: Pick<ListOptions, 'source' | 'isResolved'> = {}): Promise<number> {
    return options.source === 'hermes' ? 0 : this.#read(dir, 'count checkpoints', countCheckpoints, options);
  }

  async resolve(dir: string, ref: string, lookup: Pick<ListOptions, 'isResolved'> = {}): Promise<CheckpointEntry> {
    return this.#read(dir, 'find the checkpoint', (context, at) => resolveCheckpoint(context, at, ref), lookup);
  }

  async dropped(dir: string): Promise<DroppedList> {
    const entries = await this.#read(dir, 'list the dropped checkpoints', droppedCheckpoints);
    const resolved = await resolveTimelineDirectory(dir);
    return { dir: resolved, keepDroppedDays: this.droppedContext().keepDroppedDays, entries };
  }

  async directories(): Promise<readonly CheckpointDirectory[]> {
    await this.ensureReady();
    return listDirectories(this.queries()).catch((error: unknown) => {
      throw asAppError(error, this.options.logger, 'list the checkpointed directories');
    });
  }

  async status(dir?: string): Promise<StoreStatus> {
    await this.ensureReady();
    try {
      const status = await readStoreStatus(this.views(), dir);
      const isWatching = this.options.watch === true;
      const directories = await Promise.all(
        status.directories.map(async (item) => ({
          ...(item.exists ? { ...item, rules: summarizeRules(await this.rules.current(item.dir)) } : item),
          watch: watchStatusOf(this.tracked.get(item.dirhash), isWatching),
        })),
      );
      return { ...status, directories };
    } catch (error) {
      throw asAppError(error, this.options.logger, 'read the store status');
    }
  }

  /** The head of every timeline, by directory hash (what the store watcher compares). */
  async heads(): Promise<Map<string, string>> {
    return this.ensureReady().then(() => this.refs.list());
  }

  /** The directory a timeline belongs to, from the registry. */
  async directoryOf(dirhash: string): Promise<string | undefined> {
    return (await this.registry.read(dirhash))?.workdir;
  }

  async readTree(treeOid: string): Promise<readonly StoredTreeEntry[]> {
    if (!isObjectId(treeOid))
      throw new AppError('invalid_request', `"${treeOid}" is not a tree id (40 hex characters).`, { field: 'tree' });
    return this.store.readTree(treeOid);
  }

  async readBlob(oid: string): Promise<Uint8Array> {
    if (!isObjectId(oid))
      throw new AppError('invalid_request', `"${oid}" is not a blob id (40 hex characters).`, { field: 'oid' });
    return this.store.readTyped(oid, 'blob');
  }

  knownHashes(dir: string): KnownHashes | undefined {
    return this.tracked.knownHashes(dir);
  }

  isExcluded(dir: string, relativePath: string): boolean {
    if (isVigilBookkeepingFile(path.basename(relativePath))) return true;
    return (this.rules.lastKnown(dir) ?? StoreRules.builtIn).pathExclusion(relativePath, false) !== undefined;
  }

  async storeRules(dir: string, found?: Parameters<DirectoryRules['current']>[1]): Promise<LoadedRules> {
    return this.rules.current(path.resolve(dir), found);
  }

  async #read<T>(
    dir: string,
    action: string,
    query: (context: QueryContext, resolved: string) => Promise<T>,
    { isResolved = false }: Pick<ListOptions, 'isResolved'> = {},
  ): Promise<T> {
    try {
      await this.ensureReady();
      return await query(this.queries(), isResolved ? dir : await resolveTimelineDirectory(dir));
    } catch (error) {
      throw asAppError(error, this.options.logger, action);
    }
  }

  /** Creates the store when missing and, once per process, clears what an interrupted writer left. */
  protected ensureReady(): Promise<void> {
    this.#ready ??= (async () => {
      await this.lock.withLock(async () => {
        await this.refs.init();
        await Promise.all([
          mkdir(this.layout.registryDir, { recursive: true }),
          mkdir(this.layout.statDir, { recursive: true }),
        ]);
        await repairStore(this.repairContext());
      });
      this.#ignoredFolders = await realIgnoredFoldersOf(this.layout.root);
    })().catch((error: unknown) => {
      this.#ready = undefined;
      throw asAppError(error, this.options.logger, 'open the checkpoint store');
    });
    return this.#ready;
  }

  /** Vigil's own folders, never stored: the checkpoints folder and, in the usual layout, the whole data folder (also by real path once the store is ready). */
  protected ignoredFolders(): string[] {
    return this.#ignoredFolders ?? ignoredFoldersOf(this.layout.root);
  }

  protected queries(): QueryContext {
    return {
      layout: this.layout,
      refs: this.refs,
      registry: this.registry,
      timeline: this.timeline,
      dropped: this.droppedContext(),
    };
  }

  protected droppedContext(): DroppedContext {
    return {
      root: this.options.root,
      refs: this.refs,
      timeline: this.timeline,
      keepDroppedDays: this.retention.keepDroppedDays ?? defaultKeepDroppedDays,
    };
  }

  protected views(): StoreViewContext {
    return {
      ...this.queries(),
      gitdir: this.gitdir,
      store: this.store,
      pins: this.pins,
      cutLog: this.#cutLog,
      settings: this.settings,
    };
  }

  protected repairContext(): Parameters<typeof repairStore>[0] {
    return {
      layout: this.layout,
      store: this.store,
      refs: this.refs,
      timeline: this.timeline,
      logger: this.options.logger,
      assertHeld: () => this.lock.assertHeld(),
    };
  }
}
