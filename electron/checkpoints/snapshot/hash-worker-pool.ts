import { access } from 'node:fs/promises';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { HashRequest, HashResult, ObjectSink } from './file-hasher';
import type { FolderListing } from './folder-listing';
import type { HashCandidate } from './stat-walk';
import type { HashWorkerCommand, HashWorkerData, HashWorkerReply } from './hash-worker';
import type { WrittenPack } from '../store/pack-writer';

/** A split walk shares out about this many subtrees per worker, so that one deep subtree does not leave the others idle. */
const subtreesPerWorker = 8;

/** Files per message to a worker: big enough to amortise the hop, small enough to balance the load. */
const chunkSize = 256;

/** Distributive form of Omit, so each command keeps its own fields. */
type CommandBody = HashWorkerCommand extends infer C ? (C extends HashWorkerCommand ? Omit<C, 'id'> : never) : never;

/** One worker thread and its pending requests. */
class HashWorker {
  readonly #worker: Worker;
  readonly #pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; onPartial?: (partial: unknown) => void }
  >();
  #nextId = 0;
  #failure: Error | undefined;

  constructor(gitdir: string, entry: URL) {
    const data: HashWorkerData = { gitdir };
    // From source (tests, `tsx`), the worker needs tsx registered before it can import TypeScript.
    this.#worker = entry.pathname.endsWith('.ts')
      ? new Worker(
          `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`,
          { eval: true, workerData: data },
        )
      : new Worker(entry, { workerData: data });
    this.#worker.unref();
    this.#worker.on('message', (reply: HashWorkerReply) => {
      const waiter = this.#pending.get(reply.id);
      if (reply.partial !== undefined) {
        waiter?.onPartial?.(reply.partial);
        return;
      }
      this.#pending.delete(reply.id);
      if (reply.error !== undefined) waiter?.reject(new Error(`hashing worker: ${reply.error}`));
      else waiter?.resolve(reply.value);
    });
    const fail = (error: Error): void => {
      this.#failure = error;
      for (const waiter of this.#pending.values()) waiter.reject(error);
      this.#pending.clear();
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`hashing worker exited with code ${code}`)));
  }

  /** Sends a command and waits for its answer. */
  send(command: CommandBody, onPartial?: (partial: unknown) => void): Promise<unknown> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, onPartial === undefined ? { resolve, reject } : { resolve, reject, onPartial });
      this.#worker.postMessage({ ...command, id });
    });
  }

  terminate(): Promise<number> {
    return this.#worker.terminate();
  }
}

/**
 * Where the worker's code is: beside this file when running from source; in the build, the
 * bundler emits `hash-worker.js` next to the entry points, while this code may sit in a chunk
 * folder below them.
 */
async function workerEntry(): Promise<URL> {
  if (import.meta.url.endsWith('.ts')) return new URL('./hash-worker.ts', import.meta.url);
  const candidates = [new URL('./hash-worker.js', import.meta.url), new URL('../hash-worker.js', import.meta.url)];
  for (const candidate of candidates) {
    if (
      await access(candidate).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  throw new Error(
    `the hashing worker is missing from the build (looked for ${candidates.map((url) => url.pathname).join(', ')})`,
  );
}

/** The stat cache a walk compares against in the workers, as loaded (and checked) for the state it updates. */
export interface WalkBaseline {
  readonly content: Uint8Array;
  readonly maxFileBytes: number;
}

/**
 * How many hashing threads to use by default: one per core, 1 to 4 (the main thread waits
 * meanwhile). A one-shot process counts only the cores other processes leave idle (by the load
 * average), at least one: on a busy machine a second thread gains no core and costs its own cold
 * start and JIT warm-up (on a 50,000-file walk, two threads used ~0.6 s of CPU where one used ~0.4 s).
 */
export function defaultWorkerCount(isOneShot = false): number {
  const cores = os.availableParallelism();
  const idle = isOneShot ? Math.round(cores - (os.loadavg()[0] ?? 0)) : cores;
  return Math.max(1, Math.min(4, idle));
}

/**
 * Worker threads that hash big batches of files, each into its own pack. Started on first use,
 * kept for the next big snapshot, stopped by `dispose`.
 */
export class HashWorkerPool {
  #workers: HashWorker[] = [];
  #starting: Promise<readonly HashWorker[]> | undefined;

  constructor(
    private readonly gitdir: string,
    private readonly size: number,
  ) {}

  /** Starts the workers once (concurrent callers share the start). */
  #ensureStarted(): Promise<readonly HashWorker[]> {
    this.#starting ??= this.#kept(
      workerEntry().then((entry) => Array.from({ length: this.size }, () => new HashWorker(this.gitdir, entry))),
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

  /** Starts the workers now, ahead of a walk or batch known to come (their start-up overlaps the caller's work). */
  prestart(): void {
    this.#ensureStarted().catch(() => undefined);
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

  /** Hashes every candidate across the workers (into one pack each, or as loose objects); resolves with the packs written. */
  async run(
    root: string,
    candidates: readonly HashCandidate[],
    maxFileBytes: number,
    onResults: (results: readonly HashResult[]) => void,
    sink: ObjectSink = 'pack',
  ): Promise<WrittenPack[]> {
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
          onResults((await worker.send({ type: 'hash', request })) as HashResult[]);
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
  ): Promise<void> {
    const workers = await this.#ensureStarted();
    const [first] = workers;
    if (first === undefined) throw new Error('no hashing worker');
    if (baseline === undefined) {
      await this.#walk(workers, first, root, rel, ignoredFolders, onListings);
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
      await this.#walk(workers, first, root, rel, ignoredFolders, onListings);
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
    root: string,
    rel: string,
    ignoredFolders: readonly string[],
    onListings: (listings: readonly FolderListing[]) => void,
  ): Promise<void> {
    const hand = (partial: unknown): void => onListings(partial as FolderListing[]);
    const splitAt = workers.length > 1 ? workers.length * subtreesPerWorker : undefined;
    const subtrees = (await first.send({ type: 'walk', root, rel, ignoredFolders, splitAt }, hand)) as string[];
    let next = 0;
    await Promise.all(
      workers.map(async (worker) => {
        while (next < subtrees.length) {
          const subtree = subtrees[next++] as string;
          await worker.send({ type: 'walk', root, rel: subtree, ignoredFolders }, hand);
        }
      }),
    );
  }

  /** Stops every worker. */
  async dispose(): Promise<void> {
    const starting = this.#starting;
    this.#workers = [];
    this.#starting = undefined;
    // Workers still starting are stopped once they run, not left behind.
    const workers = starting === undefined ? [] : await starting.catch(() => []);
    await Promise.all(workers.map((worker) => worker.terminate().catch(() => 0)));
  }
}
