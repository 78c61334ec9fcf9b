/*
 * Blocking file I/O for the hashing worker thread only. A worker exists to do blocking work off
 * the main thread, and there one synchronous open/fstat/read/close costs a third of the same steps
 * as separate thread-pool round trips (measured on 10,000 small files). The app's main thread never
 * calls these: it uses the asynchronous reader, writer and walk (async-file-reader.ts, object-store.ts,
 * stat-walk.ts).
 */
/* eslint-disable no-restricted-syntax -- worker-thread-only blocking I/O, see above */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { isSpecialRead, liveReadFlags } from '../../files';
import { isSameRead, readStampOf, type FileRead, type ReadStamp } from './async-file-reader';
import { openedPathBlocking } from './walk-blocking';
import { isOpenedName, maxFileOpens } from './walk-descriptor';
import { objectHeader, type ObjectType, ownBytes, windowBitsFor } from '../../git-store';

const maxReads = 3;

/** Opens the file at `absolute` once it is found at `expected` (see `isOpenedName`), or undefined. */
function openAtBlocking(absolute: string, expected: string | undefined): number | undefined {
  for (let attempt = 1; attempt <= maxFileOpens; attempt += 1) {
    const fd = openSync(absolute, liveReadFlags);
    if (expected === undefined || isOpenedName(openedPathBlocking(fd), expected)) return fd;
    closeSync(fd);
  }
  return undefined;
}

/**
 * Reads a file (re-reading it when it changed meanwhile), blocking the calling worker; `listed` (the
 * walk's lstat) stands for the fstat before the first read, and `expected` is where the file must
 * be, as in `readForHash` (a symlink's target is read there: rare, and checked in its own folder).
 */
export function readBlocking(absolute: string, maxFileBytes: number, listed?: ReadStamp, expected?: string): FileRead {
  const fd = openAtBlocking(absolute, expected);
  // Not the workspace's file: reached through a folder an agent swapped for a symlink since the walk.
  if (fd === undefined) return { kind: 'vanished' };
  try {
    let before = listed ?? readStampOf(fstatSync(fd, { bigint: true }));
    for (let attempt = 1; ; attempt += 1) {
      if (!before.isFile) return { kind: 'skipped', reason: 'special' };
      if (Number(before.size) > maxFileBytes) return { kind: 'skipped', reason: 'oversize' };
      const size = Number(before.size);
      const buffer = Buffer.allocUnsafe(size);
      let offset = 0;
      while (offset < size) {
        let bytesRead: number;
        try {
          bytesRead = readSync(fd, buffer, offset, size - offset, offset);
        } catch (error) {
          // A folder or FIFO swapped in after the lstat: what was opened is not a regular file.
          if (isSpecialRead(error)) return { kind: 'skipped', reason: 'special' };
          throw error;
        }
        if (bytesRead === 0) break;
        offset += bytesRead;
      }
      const after = fstatSync(fd, { bigint: true });
      const isStable = isSameRead(before, after) && BigInt(offset) === after.size;
      if (isStable || attempt >= maxReads)
        return { kind: 'read', content: buffer.subarray(0, offset), stats: after, isStable };
      before = readStampOf(after);
    }
  } finally {
    closeSync(fd);
  }
}

/** zlib-compresses an object's content for a pack, blocking the calling worker. */
export function compressBlocking(content: Uint8Array): Buffer {
  return ownBytes(deflateSync(content, { level: 1, windowBits: windowBitsFor(content.length) }));
}

/**
 * Writes a loose object (temp file named like git's, then rename) unless the file exists,
 * blocking the calling worker. The caller has checked the packs. `onFanMade` hears of a fan-out
 * folder this call made (as soon as it is made, even if the write then fails): only the writer
 * knows, and its entry in `objects/` must be made durable too. A write that stops short (a full
 * disk, a file size limit) throws and leaves no temp file, never a truncated object under its id.
 */
export function writeLooseBlocking(
  objectsDir: string,
  type: ObjectType,
  content: Uint8Array,
  oid: string,
  onFanMade?: (fan: string) => void,
): void {
  const folder = path.join(objectsDir, oid.slice(0, 2));
  const target = path.join(folder, oid.slice(2));
  if (existsSync(target)) return;
  if (mkdirSync(folder, { recursive: true }) !== undefined) onFanMade?.(oid.slice(0, 2));
  const temp = path.join(folder, `tmp_obj_${randomBytes(6).toString('hex')}`);
  const fd = openSync(temp, 'wx', 0o444);
  try {
    try {
      const raw = Buffer.concat([objectHeader(type, content.length), content]);
      writeAllBlocking(fd, deflateSync(raw, { level: 1, windowBits: windowBitsFor(raw.length) }));
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}

/** Writes all of `data` from the file's start: `writeSync` may write part of it and tell only by its count. */
function writeAllBlocking(fd: number, data: Uint8Array): void {
  for (let offset = 0; offset < data.length;) {
    const written = writeSync(fd, data, offset, data.length - offset, offset);
    // A regular file's write either makes progress or fails; a zero would loop for ever.
    if (written <= 0) throw new Error(`a loose object's write made no progress at byte ${offset}`);
    offset += written;
  }
}
