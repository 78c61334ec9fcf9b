import type { HashRequest, HashResult, ObjectSink } from './file-hasher';
import type { FolderListing } from './folder-listing';
import type { HashCandidate } from './stat-walk';
import type { Worker } from 'node:worker_threads';
import { HashWorker } from './hash-worker-client';
import { workerEntry } from './hash-worker-thread';
import type { WrittenPack } from '../../git-store';
import { builtInRulesData, type StoreRulesData } from './store-rules';

/** A split walk shares out about this many subtrees per worker, so that one deep subtree does not leave the others idle. */
const subtreesPerWorker = 8;

/** Files per message to a worker: big enough to amortise the hop, small enough to balance the load. */
const chunkSize = 256;

/** The stat cache a walk compares against in the workers, as loaded (and checked) for the state it updates. */
export interface WalkBaseline {
  readonly content: Uint8Array;
  readonly maxFileBytes: number;
}

/**
 * How long the workers stay after their last batch or walk. A worker that hashed 25,000 files
 * keeps a heap of ~50 MiB (and its allocator's arenas) that an idle worker never collects; a new
 * one starts in tens of milliseconds, so a resident core lets them go once its burst is over.
 */
export const workerIdleMs = 20_000;

/**
 * A run of at least this many files lets its workers go as soon as it ends, without waiting `idleMs`:
 * each holds what hashing them grew (a first snapshot of 200,000 files: ~70 MiB a worker, heap, buffers
 * and allocator arenas), while the caller goes on to build the trees and save the stat cache on the main
 * thread. A batch that big takes seconds; starting new workers for the next takes tens of milliseconds.
 */
export const releaseAfterFiles = 10_000;

/**
 * Worker threads that hash big batches of files, each into its own pack. Started on first use,
 * kept for the next big snapshot while work keeps coming, stopped after `idleMs` without any
 * (started again on the next use), and by `dispose`.
 */
export class HashWorkerPool {
  #workers: HashWorker[] = [];
  #starting: Promise<readonly HashWorker[]> | undefined;
  /** Batches and walks under way: the workers are let go only when none is. */
  #busy = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  /** A big run ended: the workers go once no other work is under way. */
  #isReleaseDue = false;

  constructor(
    private readonly gitdir: string,
    private readonly size: number,
    private readonly idleMs = workerIdleMs,
    private readonly releaseAfter = releaseAfterFiles,
  ) {}

  /** Runs `work` as busy time: the idle countdown starts again when the last work ends. */
  async #busyWith<T>(work: () => Promise<T>): Promise<T> {
    this.#busy += 1;
    clearTimeout(this.#idleTimer);
    try {
      return await work();
    } finally {
      this.#busy -= 1;
      if (this.#busy === 0 && this.#isReleaseDue) await this.dispose();
      else if (this.#busy === 0) this.#countDownIdle();
    }
  }

  /** Lets the workers go after `idleMs` unless work comes first (the timer never keeps a process alive). */
  #countDownIdle(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => {
      if (this.#busy === 0) this.dispose().catch(() => undefined);
    }, this.idleMs);
    this.#idleTimer.unref();
  }

  /** Starts the workers once (concurrent callers share the start), taking over `started` threads first. */
  #ensureStarted(started: readonly Worker[] = []): Promise<readonly HashWorker[]> {
    this.#starting ??= this.#kept(
      (started.length >= this.size ? Promise.resolve(undefined) : workerEntry()).then((entry) =>
        Array.from({ length: this.size }, (_, index) => {
          const thread = started[index] ?? entry;
          if (thread === undefined) throw new Error('no hashing worker entry');
          return new HashWorker(this.gitdir, thread);
        }),
      ),
    );
    return this.#starting;
  }

  /** A start of workers, which are this pool's once they run, unless the pool was disposed or gave them away meanwhile. */
  #kept(starting: Promise<readonly HashWorker[]>): Promise<readonly HashWorker[]> {
    const kept = starting.then((workers) => {
      if (this.#starting === kept) this.#workers = [...workers];
      return workers;
    });
    return kept;
  }

  /**
   * Starts the workers now, ahead of a walk or batch known to come (their start-up overlaps the caller's work),
   * the first of them threads already started for this store; threads it cannot use are stopped.
   */
  prestart(started: readonly Worker[] = []): void {
    const isStarting = this.#starting !== undefined;
    this.#ensureStarted(started).catch(() => undefined);
    const unused = isStarting ? started : started.slice(this.size);
    for (const thread of unused) thread.terminate().catch(() => undefined);
    if (this.#busy === 0) this.#countDownIdle();
  }

  /**
   * Takes over the workers `other` started (a walk head start's), when this pool has started none:
   * they are this pool's from now on (stopped by its `dispose`), and `other` is left empty.
   */
  adopt(other: HashWorkerPool): void {
    const starting = other.#starting;
    if (this.#starting !== undefined || starting === undefined) return;
    other.#starting = undefined;
    other.#workers = [];
    this.#starting = this.#kept(starting);
  }

  /** Whether the workers were started (and are kept for the next batch). */
  get isRunning(): boolean {
    return this.#workers.length > 0;
  }

  /**
   * Hashes every candidate across the workers (into one pack each, or as loose objects); resolves with the packs
   * written. `onFanMade` hears of every fan-out folder a loose write made, whether the write, the batch or the
   * worker then failed or not, before the run resolves or rejects.
   */
  async run(
    root: string,
    candidates: readonly HashCandidate[],
    maxFileBytes: number,
    onResults: (results: readonly HashResult[]) => void,
    sink: ObjectSink = 'pack',
    onFanMade?: (fan: string) => void,
  ): Promise<WrittenPack[]> {
    return this.#busyWith(() => this.#run(root, candidates, maxFileBytes, { onResults, onFanMade }, sink));
  }

  async #run(
    root: string,
    candidates: readonly HashCandidate[],
    maxFileBytes: number,
    listeners: {
      readonly onResults: (results: readonly HashResult[]) => void;
      readonly onFanMade: ((fan: string) => void) | undefined;
    },
    sink: ObjectSink,
  ): Promise<WrittenPack[]> {
    const { onResults, onFanMade } = listeners;
    await this.#ensureStarted();
    const workers = this.#workers.slice(0, Math.max(1, Math.min(this.size, Math.ceil(candidates.length / chunkSize))));
    let next = 0;
    const packs: WrittenPack[] = [];
    const drive = async (worker: HashWorker): Promise<void> => {
      await worker.send({ type: 'begin', sink });
      try {
        for (let start = next; start < candidates.length; start = next) {
          next = start + chunkSize;
          const request: HashRequest = { root, items: candidates.slice(start, start + chunkSize), maxFileBytes };
          onResults((await worker.send({ type: 'hash', request }, undefined, onFanMade)) as HashResult[]);
        }
      } catch (error) {
        await worker.send({ type: 'abort' }).catch(() => undefined);
        throw error;
      }
      const pack = (await worker.send({ type: 'finish' })) as WrittenPack | undefined;
      if (pack !== undefined) packs.push(pack);
    };
    const outcomes = await Promise.allSettled(workers.map(drive));
    const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed !== undefined) {
      // A broken worker is replaced next time.
      await this.dispose();
      throw failed.reason;
    }
    if (candidates.length >= this.releaseAfter) this.#isReleaseDue = true;
    return packs;
  }

  /**
   * Walks a directory in the workers (blocking readdir and lstat there), handing over listings (one
   * per folder, parents first) in batches as they come, each in its own turn of the event loop.
   * One worker lists the top of the tree breadth first until there are a few subtrees per worker;
   * then every worker walks whole subtrees, taking the next one when done, so the lstat calls of a
   * big tree run on every core (as git's preloaded index does). With a `baseline`, the workers
   * hand over only the folders that differ from it (the state must be the one loaded from it).
   */
  async walk(
    root: string,
    rel: string,
    ignoredFolders: readonly string[],
    onListings: (listings: readonly FolderListing[]) => void,
    baseline?: WalkBaseline,
    rules: StoreRulesData = builtInRulesData,
  ): Promise<void> {
    return this.#busyWith(() => this.#walkWith({ root, rel, ignoredFolders, rules }, onListings, baseline));
  }

  async #walkWith(
    walk: { root: string; rel: string; ignoredFolders: readonly string[]; rules: StoreRulesData },
    onListings: (listings: readonly FolderListing[]) => void,
    baseline: WalkBaseline | undefined,
  ): Promise<void> {
    const workers = await this.#ensureStarted();
    const [first] = workers;
    if (first === undefined) throw new Error('no hashing worker');
    if (baseline === undefined) {
      await this.#walk(workers, first, walk, onListings);
      return;
    }
    // Queued before the walks, so each worker has decoded it when it starts walking.
    const set = (content: Uint8Array | undefined): Promise<unknown[]> =>
      Promise.all(
        workers.map((worker) =>
          worker.send({
            type: 'baseline',
            maxFileBytes: baseline.maxFileBytes,
            ...(content === undefined ? {} : { content }),
          }),
        ),
      );
    const ready = set(baseline.content);
    // Observed at once: a walk that fails first (its workers stopped) leaves it unawaited.
    ready.catch(() => undefined);
    try {
      await this.#walk(workers, first, walk, onListings);
      await ready;
    } finally {
      // Not waited for: a worker takes its commands in order, so whatever is sent to it next runs
      // without the baseline, and the walk's result need not wait for one more round trip.
      set(undefined).catch(() => undefined);
    }
  }

  async #walk(
    workers: readonly HashWorker[],
    first: HashWorker,
    walk: { root: string; rel: string; ignoredFolders: readonly string[]; rules: StoreRulesData },
    onListings: (listings: readonly FolderListing[]) => void,
  ): Promise<void> {
    const { root, rel, ignoredFolders, rules } = walk;
    const hand = (partial: unknown): void => onListings(partial as FolderListing[]);
    // The rules go to a worker once per change (a repository's tracked paths are many).
    const rulesFor = (worker: HashWorker): { rulesKey: string; rules?: StoreRulesData } => {
      if (worker.rulesKey === rules.key) return { rulesKey: rules.key };
      worker.rulesKey = rules.key;
      return { rulesKey: rules.key, rules };
    };
    const splitAt = workers.length > 1 ? workers.length * subtreesPerWorker : undefined;
    const subtrees = (await first.send(
      { type: 'walk', root, rel, ignoredFolders, splitAt, ...rulesFor(first) },
      hand,
    )) as string[];
    let next = 0;
    await Promise.all(
      workers.map(async (worker) => {
        while (next < subtrees.length) {
          const subtree = subtrees[next++] as string;
          await worker.send({ type: 'walk', root, rel: subtree, ignoredFolders, ...rulesFor(worker) }, hand);
        }
      }),
    );
  }

  /** Stops every worker (a later batch or walk starts new ones). */
  async dispose(): Promise<void> {
    clearTimeout(this.#idleTimer);
    this.#isReleaseDue = false;
    const starting = this.#starting;
    this.#workers = [];
    this.#starting = undefined;
    // Workers still starting are stopped once they run, not left behind.
    const workers = starting === undefined ? [] : await starting.catch(() => []);
    await Promise.all(workers.map((worker) => worker.terminate().catch(() => 0)));
  }
}
