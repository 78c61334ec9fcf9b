import { constants, type BigIntStats } from 'node:fs';
import { lstat, open, readlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from '../files/file-system-error';
import { compressBlocking, readBlocking } from './blocking-file-reader';
import { hashObject, type FileMode } from './git-objects';
import { countLines, isBinary } from './line-stats';
import type { ObjectStore } from './object-store';
import { PackWriter, type WrittenPack } from './pack-writer';
import type { HashCandidate } from './stat-walk';
import { modeOfStat } from './stat-walk';

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
    }
  | { readonly kind: 'skipped'; readonly rel: string; readonly reason: 'oversize' | 'unreadable' | 'special' }
  | { readonly kind: 'vanished'; readonly rel: string };

/** A file is re-read when it changed while being read; after this many tries its record is marked for re-hashing. */
const maxReads = 3;

const noFollow = process.platform === 'win32' ? 0 : constants.O_NOFOLLOW;

function sameStat(a: BigIntStats, b: BigIntStats): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino;
}

/**
 * Reads, hashes and stores file contents: into a new pack for big batches (one file write for
 * thousands of objects), as loose objects for small ones. The same code runs on the main thread
 * for a handful of files and in worker threads for big snapshots.
 */
export class FileHasher {
  #pack: PackWriter | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly usePack: boolean,
    /** Read and compress with blocking calls, one file at a time: for the worker thread only. */
    private readonly isWorker = false,
  ) {}

  /** Prepares for a batch: lists loose objects once, opens the pack. */
  async begin(): Promise<void> {
    await this.store.refresh();
    if (this.usePack) {
      await this.store.preloadLoose();
      this.#pack = await PackWriter.create(this.store.packDir);
    }
  }

  /** Hashes and stores every file of the request (8 at a time; one after another in a worker). */
  async hash(request: HashRequest): Promise<HashResult[]> {
    const results = new Array<HashResult>(request.items.length);
    if (this.isWorker) {
      for (const [index, item] of request.items.entries()) results[index] = await this.#hashOne(request, item);
      return results;
    }
    let next = 0;
    const runner = async (): Promise<void> => {
      for (let index = next++; index < request.items.length; index = next++) {
        const item = request.items[index];
        if (item !== undefined) results[index] = await this.#hashOne(request, item);
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
    return pack === undefined ? undefined : pack.finish();
  }

  /** Drops an unfinished pack. */
  async abort(): Promise<void> {
    const pack = this.#pack;
    this.#pack = undefined;
    this.store.forgetLoose();
    await pack?.abort();
  }

  async #hashOne(request: HashRequest, item: HashCandidate): Promise<HashResult> {
    const absolute = path.join(request.root, item.rel);
    try {
      const read = this.isWorker
        ? readBlocking(absolute, item.isSymlink, request.maxFileBytes)
        : item.isSymlink
          ? await readSymlink(absolute)
          : await readStable(absolute, request.maxFileBytes);
      if (read.kind !== 'read') return { ...read, rel: item.rel };
      const { content, stats, isStable } = read;
      const oid = hashObject('blob', content);
      await this.#store(content, oid);
      const binary = isBinary(content);
      return {
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
      };
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return { kind: 'vanished', rel: item.rel };
      if (code !== undefined) return { kind: 'skipped', rel: item.rel, reason: 'unreadable' };
      throw error;
    }
  }

  async #store(content: Buffer, oid: string): Promise<void> {
    const pack = this.#pack;
    if (pack === undefined) {
      await this.store.writeLoose('blob', content, oid);
      return;
    }
    if (pack.has(oid) || (await this.store.has(oid))) return;
    if (this.isWorker) {
      await pack.addCompressed('blob', content.length, compressBlocking(content), oid);
      return;
    }
    this.store.remember(oid, 'blob', content);
    await pack.add('blob', content, oid);
  }
}

type ReadOutcome =
  | { readonly kind: 'read'; readonly content: Buffer; readonly stats: BigIntStats; readonly isStable: boolean }
  | { readonly kind: 'skipped'; readonly reason: 'oversize' | 'special' }
  | { readonly kind: 'vanished' };

/** Reads a regular file, re-reading it when it changed underneath (checked with fstat before and after). */
async function readStable(absolute: string, maxFileBytes: number): Promise<ReadOutcome> {
  const handle = await open(absolute, constants.O_RDONLY | noFollow);
  try {
    let before = await handle.stat({ bigint: true });
    for (let attempt = 1; ; attempt += 1) {
      if (!before.isFile()) return { kind: 'skipped', reason: 'special' };
      if (Number(before.size) > maxFileBytes) return { kind: 'skipped', reason: 'oversize' };
      const content = await readAt(handle, Number(before.size));
      const after = await handle.stat({ bigint: true });
      const isStable = sameStat(before, after) && BigInt(content.length) === after.size;
      if (isStable || attempt >= maxReads) return { kind: 'read', content, stats: after, isStable };
      before = after;
    }
  } finally {
    await handle.close();
  }
}

/** Reads `size` bytes from the start of a file with positional reads (fewer when it shrank). */
async function readAt(handle: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size);
  let offset = 0;
  while (offset < size) {
    const { bytesRead } = await handle.read(buffer, offset, size - offset, offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  return buffer.subarray(0, offset);
}

/** Reads a symlink's target (its blob content), checking it did not change meanwhile. */
async function readSymlink(absolute: string): Promise<ReadOutcome> {
  const before = await lstat(absolute, { bigint: true });
  if (!before.isSymbolicLink()) return { kind: 'vanished' };
  const target = await readlink(absolute, { encoding: 'buffer' });
  const after = await lstat(absolute, { bigint: true });
  return { kind: 'read', content: target, stats: after, isStable: sameStat(before, after) };
}
