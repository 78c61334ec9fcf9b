import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { CheckpointServiceOptions } from './checkpoint-api';
import { knownHashesOf, type KnownHashes } from './snapshot/known-hashes';
import type { DirectoryWatchers } from './snapshot/directory-watchers';
import type { HashWorkerPool } from './snapshot/hash-worker-pool';
import { TrackedDirectory } from './snapshot/tracked-directory';
import { dirHash, statCacheFile, type StoreLayout } from '../git-store';

/** From this many files to walk or hash on, the worker threads do it. */
export const defaultWorkerThreshold = 2_000;
/** A stat cache takes about this many bytes per file (stat, blob id, name): its size tells a tree's size before it is read. */
const statCacheBytesPerFile = 64;

/** What the tracked directories need from the engine that owns them. */
export interface TrackingContext {
  readonly options: CheckpointServiceOptions;
  readonly layout: StoreLayout;
  readonly pool: HashWorkerPool;
  readonly watchers: DirectoryWatchers;
  maxFileBytes(): number;
  ignoredFolders(): string[];
  isDisposed(): boolean;
}

/** The directories an engine has checkpointed or watched in this process, by directory hash, each with its in-memory state. */
export class TrackedDirectories {
  readonly #context: TrackingContext;
  readonly #byHash = new Map<string, TrackedDirectory>();

  constructor(context: TrackingContext) {
    this.#context = context;
  }

  /** The tracker of a directory hash, when that directory is tracked. */
  get(dirhash: string): TrackedDirectory | undefined {
    return this.#byHash.get(dirhash);
  }

  /** Every tracked directory. */
  values(): Iterable<TrackedDirectory> {
    return this.#byHash.values();
  }

  /** The directory's tracker, created (and its watcher started) on first use. */
  async track(dir: string): Promise<TrackedDirectory> {
    const dirhash = dirHash(dir);
    let tracked = this.#byHash.get(dirhash);
    if (tracked === undefined) {
      tracked = new TrackedDirectory(dir, dirhash);
      this.#byHash.set(dirhash, tracked);
      if (this.#context.options.watch === true)
        await this.#context.watchers.watch(tracked, this.#context.ignoredFolders());
      else if (!this.#adoptHeadStart(tracked)) this.#prestartForBigTree(dirhash);
    }
    return tracked;
  }

  /** Marks the written paths dirty in every tracked directory that holds them. */
  noteWritten(paths: readonly string[]): void {
    for (const written of paths) {
      const absolute = path.resolve(written);
      for (const tracked of this.#byHash.values()) tracked.markDirty(absolute);
    }
  }

  /** The blob ids known for `dir`'s files, when it is tracked and has a state. */
  knownHashes(dir: string): KnownHashes | undefined {
    const state = this.#byHash.get(dirHash(dir))?.state;
    return state === undefined ? undefined : knownHashesOf(state);
  }

  /**
   * Takes over the walk begun before this engine was built, when it walked this directory with
   * this store's lock, ignored folders and file size cap (its first snapshot then uses it, if the
   * lock is still held under the same hold); its workers become this engine's.
   */
  #adoptHeadStart(tracked: TrackedDirectory): boolean {
    const headStart = this.#context.options.headStart;
    if (
      headStart === undefined ||
      headStart.dir !== tracked.dir ||
      path.resolve(headStart.lockPath) !== path.resolve(this.#context.layout.lockPath) ||
      headStart.maxFileBytes !== this.#context.maxFileBytes() ||
      headStart.ignoredFolders.join('\0') !== this.#context.ignoredFolders().join('\0')
    )
      return false;
    tracked.headStart = headStart;
    this.#context.pool.adopt(headStart.pool);
    return true;
  }

  /**
   * A one-shot process walks a big tree in the workers: when the directory's stat cache says it is
   * big, they start now, while the store is opened and the cache read, not after.
   */
  #prestartForBigTree(dirhash: string): void {
    const threshold = this.#context.options.workerThreshold ?? defaultWorkerThreshold;
    void stat(statCacheFile(this.#context.layout, dirhash)).then(
      (info) => {
        if (info.size >= threshold * statCacheBytesPerFile && !this.#context.isDisposed())
          this.#context.pool.prestart();
      },
      () => undefined,
    );
  }
}
