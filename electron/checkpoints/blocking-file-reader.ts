/*
 * Blocking reads for the hashing worker thread only. A worker exists to do blocking work off the
 * main thread, and there one synchronous open/fstat/read/close costs a third of the same steps as
 * separate thread-pool round trips (measured on 10,000 small files). The app's main thread never
 * calls these: it uses the asynchronous reader in file-hasher.ts.
 */
/* eslint-disable no-restricted-syntax -- worker-thread-only blocking I/O, see above */
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, type BigIntStats } from 'node:fs';
import { deflateSync } from 'node:zlib';

/** What a blocking read found. */
export type BlockingRead =
  | { readonly kind: 'read'; readonly content: Buffer; readonly stats: BigIntStats; readonly isStable: boolean }
  | { readonly kind: 'skipped'; readonly reason: 'oversize' | 'special' }
  | { readonly kind: 'vanished' };

const noFollow = process.platform === 'win32' ? 0 : constants.O_NOFOLLOW;
const maxReads = 3;

function sameStat(a: BigIntStats, b: BigIntStats): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino;
}

/** Reads a file (re-reading it when it changed meanwhile) or a symlink's target, blocking the calling worker. */
export function readBlocking(absolute: string, isSymlink: boolean, maxFileBytes: number): BlockingRead {
  if (isSymlink) {
    const before = lstatSync(absolute, { bigint: true });
    if (!before.isSymbolicLink()) return { kind: 'vanished' };
    const target = readlinkSync(absolute, { encoding: 'buffer' });
    const after = lstatSync(absolute, { bigint: true });
    return { kind: 'read', content: target, stats: after, isStable: sameStat(before, after) };
  }
  const fd = openSync(absolute, constants.O_RDONLY | noFollow);
  try {
    let before = fstatSync(fd, { bigint: true });
    for (let attempt = 1; ; attempt += 1) {
      if (!before.isFile()) return { kind: 'skipped', reason: 'special' };
      if (Number(before.size) > maxFileBytes) return { kind: 'skipped', reason: 'oversize' };
      const size = Number(before.size);
      const buffer = Buffer.allocUnsafe(size);
      let offset = 0;
      while (offset < size) {
        const bytesRead = readSync(fd, buffer, offset, size - offset, offset);
        if (bytesRead === 0) break;
        offset += bytesRead;
      }
      const after = fstatSync(fd, { bigint: true });
      const isStable = sameStat(before, after) && BigInt(offset) === after.size;
      if (isStable || attempt >= maxReads) return { kind: 'read', content: buffer.subarray(0, offset), stats: after, isStable };
      before = after;
    }
  } finally {
    closeSync(fd);
  }
}

/** zlib-compresses an object's content for a pack, blocking the calling worker. */
export function compressBlocking(content: Uint8Array): Buffer {
  return deflateSync(content, { level: 1 });
}
