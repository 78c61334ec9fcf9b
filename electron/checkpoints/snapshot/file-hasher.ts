import path from 'node:path';
import { errnoCode } from '../../files';
import { type FileRead, readForHash } from './async-file-reader';
import { compressBlocking, readBlocking, writeLooseBlocking } from './blocking-io';
import { type FileMode, hashObject, PackWriter, type WrittenPack } from '../../git-store';
import { countLines, isBinary, lineChanges } from './line-stats';
import type { ObjectStore } from '../../git-store';
import type { HashCandidate } from './stat-walk';
import { modeOfStat } from './stat-walk';
import { writingStore } from './store-write-error';
import { expectedPath, realRootOf } from './walk-descriptor';

/**
 * Where hashed objects go: loose files; a pack of the objects the store lacks (its loose objects
 * listed first, one folder listing per fan-out folder); or a pack that skips only what the packs
 * already hold. The last may store again an object that is also loose (harmless: a later
 * collection keeps one copy) and is for a small batch that must be durable at once, where
 * listing every loose object would cost more than the batch.
 */
export type ObjectSink = 'loose' | 'pack' | 'quick-pack';

/** One batch of files to hash. */
export interface HashRequest {
  readonly root: string;
  readonly items: readonly HashCandidate[];
  readonly maxFileBytes: number;
}

/** What hashing one file found. */
export type HashResult =
  | {
      readonly kind: 'stored';
      readonly rel: string;
      readonly mode: FileMode;
      readonly oid: string;
      readonly size: number;
      readonly mtimeNs: bigint;
      readonly ctimeNs: bigint;
      readonly ino: bigint;
      /** Lines in the file (0 when binary), for the change stats of files added. */
      readonly lines: number;
      readonly binary: boolean;
      /** Lines added and removed against the candidate's previous blob (both text), computed while the content is at hand. */
      readonly changes?: { readonly insertions: number; readonly deletions: number };
      /**
       * The object was already in the store as a loose file this hasher did not write (a pack leaves it out):
       * maybe left by a checkpoint that failed or was killed before its fsync, so this one must fsync it.
       */
      readonly reusedLoose?: true;
    }
  | { readonly kind: 'skipped'; readonly rel: string; readonly reason: 'oversize' | 'unreadable' | 'special' }
  | { readonly kind: 'vanished'; readonly rel: string };

/**
 * Reads, hashes and stores file contents: into a new pack for big batches (one file write for
 * thousands of objects), as loose objects for small ones. The same code runs on the main thread
 * for a handful of files and in worker threads for big snapshots.
 */
export class FileHasher {
  #pack: PackWriter | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly sink: ObjectSink,
    /** Read and compress with blocking calls, one file at a time: for the worker thread only. */
    private readonly isWorker = false,
    /**
     * Hears of each fan-out folder (`xx`) a worker's loose write made, as soon as it exists, whatever then
     * happens to the write: the main thread's store must make its entry in `objects/` durable, and only the
     * writer knows it made it (on the main thread the store notes its own).
     */
    private readonly onFanMade?: (fan: string) => void,
  ) {}

  /** Prepares for a batch: opens the pack (for a full pack, lists loose objects once first). */
  async begin(): Promise<void> {
    await this.store.refresh();
    if (this.sink !== 'loose') {
      if (this.sink === 'pack') await this.store.preloadLoose();
      this.#pack = await this.#writing(() => PackWriter.create(this.store.packDir));
    }
  }

  /** Hashes and stores every file of the request (8 at a time; one after another in a worker). */
  async hash(request: HashRequest): Promise<HashResult[]> {
    const results = new Array<HashResult>(request.items.length);
    const realRoot = await realRootOf(request.root);
    if (this.isWorker) {
      for (const [index, item] of request.items.entries())
        results[index] = await this.#hashOne(request, realRoot, item);
      return results;
    }
    let next = 0;
    const runner = async (): Promise<void> => {
      for (let index = next++; index < request.items.length; index = next++) {
        const item = request.items[index];
        if (item !== undefined) results[index] = await this.#hashOne(request, realRoot, item);
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, request.items.length) }, runner));
    return results;
  }

  /** Makes the pack visible (when one was used and holds anything). */
  async finish(): Promise<WrittenPack | undefined> {
    const pack = this.#pack;
    this.#pack = undefined;
    this.store.forgetLoose();
    return pack === undefined ? undefined : this.#writing(() => pack.finish());
  }

  /** Drops an unfinished pack. */
  async abort(): Promise<void> {
    const pack = this.#pack;
    this.#pack = undefined;
    this.store.forgetLoose();
    await pack?.abort();
  }

  async #hashOne(request: HashRequest, realRoot: string | undefined, item: HashCandidate): Promise<HashResult> {
    const read = await this.#read(request, realRoot, item);
    if (read.kind !== 'read') return read;
    const { content, stats, isStable } = read;
    const oid = hashObject('blob', content);
    // Outside the read's catch: a store that cannot take the object fails the checkpoint, it is not this file's fault.
    const isReusedLoose = await this.#writing(() => this.#store(content, oid));
    const binary = isBinary(content);
    const changes =
      item.oldOid !== undefined && item.oldOid !== oid && !binary
        ? await this.#changes(item.oldOid, content)
        : undefined;
    return {
      changes,
      kind: 'stored',
      rel: item.rel,
      mode: modeOfStat(stats),
      oid,
      size: Number(stats.size),
      mtimeNs: stats.mtimeNs,
      // A file that kept changing while read gets an impossible ctime: it is re-hashed next time.
      ctimeNs: isStable ? stats.ctimeNs : -1n,
      ino: stats.ino,
      lines: binary ? 0 : countLines(content),
      binary,
      ...(isReusedLoose && { reusedLoose: true }),
    };
  }

  /** Reads the source file: a file that vanished or cannot be read is that file's outcome (skipped), not an error. */
  async #read(
    request: HashRequest,
    realRoot: string | undefined,
    item: HashCandidate,
  ): Promise<Extract<FileRead, { kind: 'read' }> | HashResult> {
    const absolute = path.join(request.root, item.rel);
    // Where the file must be found: never in a folder an agent swapped in for a symlink (walk-descriptor.ts).
    const expected = realRoot === undefined ? undefined : expectedPath(realRoot, item.rel);
    try {
      const read =
        this.isWorker && !item.isSymlink
          ? readBlocking(absolute, request.maxFileBytes, item.listed, expected)
          : await readForHash(absolute, item.isSymlink, request.maxFileBytes, item.listed, {
              within: request.root,
              expected,
            });
      return read.kind === 'read' ? read : { ...read, rel: item.rel };
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return { kind: 'vanished', rel: item.rel };
      if (code !== undefined) return { kind: 'skipped', rel: item.rel, reason: 'unreadable' };
      throw error;
    }
  }

  /** Runs a write into the store, its fs failure turned into the checkpoint's error naming the store and the fix. */
  #writing<T>(write: () => Promise<T>): Promise<T> {
    return writingStore(path.dirname(this.store.objectsDir), write);
  }

  /** Lines added and removed against the previous version, when it is text and still in the store. */
  async #changes(oldOid: string, content: Buffer): Promise<{ insertions: number; deletions: number } | undefined> {
    const old = await this.store.readTyped(oldOid, 'blob').catch(() => undefined);
    return old === undefined || isBinary(old) ? undefined : lineChanges(old, content);
  }

  /** Stores the object; true when it is an existing loose object left as it is (which the checkpoint must fsync). */
  async #store(content: Buffer, oid: string): Promise<boolean> {
    const pack = this.#pack;
    if (pack === undefined) {
      // The main thread's store notes an existing loose object for the fsync itself; a worker's writes are all noted.
      if (!this.isWorker) await this.store.writeLoose('blob', content, oid);
      else if (!this.store.hasPacked(oid))
        writeLooseBlocking(this.store.objectsDir, 'blob', content, oid, this.onFanMade);
      return false;
    }
    if (pack.has(oid) || this.store.hasPacked(oid)) return false;
    if (this.sink === 'pack' && (await this.store.has(oid))) return true;
    if (this.isWorker) {
      await pack.addCompressed('blob', content.length, compressBlocking(content), oid);
      return false;
    }
    this.store.remember(oid, 'blob', content);
    await pack.add('blob', content, oid);
    return false;
  }
}
