import type { BigIntStats } from 'node:fs';
import { lstat, open, readlink, type FileHandle } from 'node:fs/promises';
import { isSpecialRead, liveReadFlags, readLiveLink } from '../../files';
import { isOpenedAt, maxFileOpens } from './walk-descriptor';

/** What reading a file for hashing found. */
export type FileRead =
  | { readonly kind: 'read'; readonly content: Buffer; readonly stats: BigIntStats; readonly isStable: boolean }
  | { readonly kind: 'skipped'; readonly reason: 'oversize' | 'special' }
  | { readonly kind: 'vanished' };

/** A file is re-read when it changed while being read; after this many tries its record is marked for re-hashing. */
const maxReads = 3;

/** What a read compares before and after: the fields of a stat that change with the content or the inode. */
export interface ReadStamp {
  readonly size: bigint | number;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly ino: bigint;
  readonly isFile: boolean;
}

/** Whether a stat after a read shows the file as it was before it (same inode, size and times). */
export function isSameRead(a: ReadStamp, b: BigIntStats): boolean {
  return BigInt(a.size) === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino;
}

/** The stamp of a stat. */
export function readStampOf(stats: BigIntStats): ReadStamp {
  return { size: stats.size, mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs, ino: stats.ino, isFile: stats.isFile() };
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

/** Opens the file at `absolute` once it is found at `expected` (see `isOpenedName`), or undefined. */
async function openAt(absolute: string, expected: string | undefined): Promise<FileHandle | undefined> {
  for (let attempt = 1; attempt <= maxFileOpens; attempt += 1) {
    // Never through a symlink, never blocking on a FIFO swapped in after the walk's lstat (found special by the read).
    const handle = await open(absolute, liveReadFlags);
    if (await isOpenedAt(handle.fd, expected)) return handle;
    await handle.close();
  }
  return undefined;
}

/**
 * Reads a regular file without following a symlink, re-reading it when it changed underneath: the
 * fstat after the read is compared with the one before, or with the walk's lstat (`listed`, taken
 * before the open) when there is one. That comparison also covers the open: the descriptor's inode
 * never changes, so a file changed or swapped (even for a folder) since the lstat is found stale
 * after the read and read again from its own fstat, as a separate fstat before the read would have.
 */
async function readStable(
  absolute: string,
  maxFileBytes: number,
  listed?: ReadStamp,
  expected?: string,
): Promise<FileRead> {
  const handle = await openAt(absolute, expected);
  // Not the workspace's file: reached through a folder an agent swapped for a symlink since the walk.
  if (handle === undefined) return { kind: 'vanished' };
  try {
    let before = listed ?? readStampOf(await handle.stat({ bigint: true }));
    for (let attempt = 1; ; attempt += 1) {
      if (!before.isFile) return { kind: 'skipped', reason: 'special' };
      if (Number(before.size) > maxFileBytes) return { kind: 'skipped', reason: 'oversize' };
      const content = await readAt(handle, Number(before.size)).catch((error: unknown) => {
        // A folder or FIFO swapped in after the lstat: what was opened is not a regular file.
        if (isSpecialRead(error)) return undefined;
        throw error;
      });
      if (content === undefined) return { kind: 'skipped', reason: 'special' };
      const after = await handle.stat({ bigint: true });
      const isStable = isSameRead(before, after) && BigInt(content.length) === after.size;
      if (isStable || attempt >= maxReads) return { kind: 'read', content, stats: after, isStable };
      before = readStampOf(after);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Reads a symlink's target (its blob content), checking it did not change meanwhile; inside the
 * workspace `within`, only in the link's own folder (never through a folder swapped for a symlink).
 */
async function readSymlink(absolute: string, within: string | undefined): Promise<FileRead> {
  const before = await lstat(absolute, { bigint: true });
  if (!before.isSymbolicLink()) return { kind: 'vanished' };
  const read =
    within === undefined
      ? { kind: 'read' as const, target: await readlink(absolute, { encoding: 'buffer' }) }
      : await readLiveLink(absolute, within);
  if (read.kind !== 'read') return { kind: 'vanished' };
  const after = await lstat(absolute, { bigint: true });
  if (!after.isSymbolicLink()) return { kind: 'vanished' };
  return { kind: 'read', content: read.target, stats: after, isStable: isSameRead(readStampOf(before), after) };
}

/** Where a read must find its file: the workspace, and the file's real path below it (see walk-descriptor.ts). */
export interface ReadPlace {
  readonly within: string;
  readonly expected: string | undefined;
}

/** Reads a file or a symlink's target for hashing, without blocking the event loop (`listed`: the walk's lstat of it). */
export function readForHash(
  absolute: string,
  isSymlink: boolean,
  maxFileBytes: number,
  listed?: ReadStamp,
  place?: ReadPlace,
): Promise<FileRead> {
  return isSymlink ? readSymlink(absolute, place?.within) : readStable(absolute, maxFileBytes, listed, place?.expected);
}
