import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { AppError } from '../../shared/errors';
import { canonicalPath, errnoCode, fileSystemError, nonBlockingReadFlags } from '../files';
import type { FileIdentity } from '../files';
import { findInvalidUtf8 } from './utf8';

/** A memory file larger than this is not a memory file; Vigil refuses to load it whole. */
export const maxMemoryFileBytes = 32 * 1024 * 1024;

/** One consistent read of a memory file. */
export interface MemoryFileSnapshot {
  /** The file actually read (a symlink's resolved target). */
  readonly path: string;
  readonly exists: boolean;
  /** The bytes; empty when the file does not exist. */
  readonly bytes: Buffer;
  /** sha256 of the bytes; null when the file does not exist. */
  readonly sha256: string | null;
  /** The text; invalid UTF-8 decoded as U+FFFD, for display only. */
  readonly text: string;
  /** Offset of the first invalid UTF-8 byte, or -1. */
  readonly invalidUtf8At: number;
  /** The version read, for the atomic writer's `ifUnchanged` check; undefined when absent. */
  readonly identity: FileIdentity | undefined;
}

/** A snapshot whose file stays open, so writes that land in the old file after it was read can be found. */
export interface OpenMemoryFile {
  readonly snapshot: MemoryFileSnapshot;
  /** The file's whole content when it changed since the snapshot or the previous call (a writer raced a replace); else undefined. */
  changedSinceRead(): Promise<Buffer | undefined>;
  close(): Promise<void>;
}

/** sha256 of some bytes, as hex. */
export function sha256Of(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function identityOf(stats: BigIntStats): FileIdentity {
  return {
    ino: String(stats.ino),
    size: String(stats.size),
    mtimeNs: String(stats.mtimeNs),
    ctimeNs: String(stats.ctimeNs),
  };
}

function isSameContentVersion(a: BigIntStats, b: BigIntStats): boolean {
  // ctime is left out on purpose: replacing the file by rename changes the old inode's ctime (link count).
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ino === b.ino;
}

async function readAll(handle: FileHandle, sizeHint: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let position = 0;
  for (;;) {
    const buffer = Buffer.alloc(Math.max(64 * 1024, sizeHint - position + 1));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    position += bytesRead;
    if (position > maxMemoryFileBytes) break;
  }
  return Buffer.concat(chunks);
}

function snapshotOf(path: string, bytes: Buffer, stats: BigIntStats): MemoryFileSnapshot {
  return {
    path,
    exists: true,
    bytes,
    sha256: sha256Of(bytes),
    text: bytes.toString('utf8'),
    invalidUtf8At: findInvalidUtf8(bytes),
    identity: identityOf(stats),
  };
}

function missing(path: string): MemoryFileSnapshot {
  return {
    path,
    exists: false,
    bytes: Buffer.alloc(0),
    sha256: null,
    text: '',
    invalidUtf8At: -1,
    identity: undefined,
  };
}

/** Reads the open file until two stats around the read agree with each other and with the bytes. */
async function readConsistently(
  handle: FileHandle,
  path: string,
): Promise<{ snapshot: MemoryFileSnapshot; stats: BigIntStats }> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const before = await handle.stat({ bigint: true });
    if (!before.isFile()) {
      throw new AppError(
        'wrong_kind',
        `${path} is not a regular file; a memory file must be one. Move what is there away.`,
        { path },
      );
    }
    if (before.size > BigInt(maxMemoryFileBytes)) {
      throw new AppError(
        'limit_exceeded',
        `${path} is ${before.size} bytes, too large to be a memory file; nothing was read or written. Move it away.`,
        { path },
      );
    }
    const bytes = await readAll(handle, Number(before.size));
    const after = await handle.stat({ bigint: true });
    if (isSameContentVersion(before, after) && BigInt(bytes.length) === after.size)
      return { snapshot: snapshotOf(path, bytes, after), stats: after };
  }
  throw new AppError(
    'busy',
    `${path} kept changing while Vigil read it; nothing was written. Retry when the other writer is done.`,
    { path },
  );
}

async function openForReading(file: string): Promise<{ path: string; handle: FileHandle | undefined }> {
  const path = await canonicalPath(file);
  try {
    // Never waiting on a FIFO an agent put there (it is refused as not a regular file by the fstat).
    return { path, handle: await open(path, nonBlockingReadFlags) };
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return { path, handle: undefined };
    throw fileSystemError(error, 'read', path);
  }
}

/** The version of the file a path leads to (through symlinks), as a snapshot records it; undefined when absent. */
export async function statIdentity(file: string): Promise<FileIdentity | undefined> {
  try {
    return identityOf(await stat(file, { bigint: true }));
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw fileSystemError(error, 'inspect', file);
  }
}

/** Reads a memory file once (missing is not an error; unreadable is). */
export async function readMemoryFile(file: string): Promise<MemoryFileSnapshot> {
  const { path, handle } = await openForReading(file);
  if (handle === undefined) return missing(path);
  try {
    return (await readConsistently(handle, path)).snapshot;
  } catch (error) {
    throw fileSystemError(error, 'read', path);
  } finally {
    await handle.close();
  }
}

/** Reads a memory file and keeps it open until `close()`, for a mutation. */
export async function openMemoryFile(file: string): Promise<OpenMemoryFile> {
  const { path, handle } = await openForReading(file);
  if (handle === undefined) {
    return {
      snapshot: missing(path),
      changedSinceRead: () => Promise.resolve(undefined),
      close: () => Promise.resolve(),
    };
  }
  let snapshot: MemoryFileSnapshot;
  let first: BigIntStats;
  try {
    ({ snapshot, stats: first } = await readConsistently(handle, path));
  } catch (error) {
    await handle.close();
    throw fileSystemError(error, 'read', path);
  }
  return {
    snapshot,
    async changedSinceRead() {
      const now = await handle.stat({ bigint: true });
      if (isSameContentVersion(first, now)) return undefined;
      // Later calls report only what changes after this one.
      first = now;
      return readAll(handle, Number(now.size));
    },
    close: () => handle.close(),
  };
}
