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
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
  type BigIntStats,
  type Dirent,
} from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { FileRead } from './async-file-reader';
import {
  classifyEntry,
  folderPath,
  listedStat,
  type FolderListing,
  type ListedEntry,
  type StatOutcome,
} from './folder-listing';
import { objectHeader, type ObjectType } from '../store/git-objects';
import { windowBitsFor } from '../store/object-zlib';
import type { StatBaseline } from './stat-baseline';

const noFollow = process.platform === 'win32' ? 0 : constants.O_NOFOLLOW;
const maxReads = 3;

function sameStat(a: BigIntStats, b: BigIntStats): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino;
}

/** Reads a file (re-reading it when it changed meanwhile) or a symlink's target, blocking the calling worker. */
export function readBlocking(absolute: string, isSymlink: boolean, maxFileBytes: number): FileRead {
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
      if (isStable || attempt >= maxReads)
        return { kind: 'read', content: buffer.subarray(0, offset), stats: after, isStable };
      before = after;
    }
  } finally {
    closeSync(fd);
  }
}

/** zlib-compresses an object's content for a pack, blocking the calling worker. */
export function compressBlocking(content: Uint8Array): Buffer {
  return deflateSync(content, { level: 1, windowBits: windowBitsFor(content.length) });
}

/**
 * Writes a loose object (temp file named like git's, then rename) unless the file exists,
 * blocking the calling worker. The caller has checked the packs.
 */
export function writeLooseBlocking(objectsDir: string, type: ObjectType, content: Uint8Array, oid: string): void {
  const folder = path.join(objectsDir, oid.slice(0, 2));
  const target = path.join(folder, oid.slice(2));
  if (existsSync(target)) return;
  mkdirSync(folder, { recursive: true });
  const temp = path.join(folder, `tmp_obj_${randomBytes(6).toString('hex')}`);
  const fd = openSync(temp, 'wx', 0o444);
  try {
    const raw = Buffer.concat([objectHeader(type, content.length), content]);
    const data = deflateSync(raw, { level: 1, windowBits: windowBitsFor(raw.length) });
    writeSync(fd, data);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, target);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}

/** The walk's lstat options and outcomes without data, made once: a walk stats every file. */
const walkStatOptions = { bigint: true, throwIfNoEntry: false } as const;
const gone: StatOutcome = { kind: 'gone' };
const unreadable: StatOutcome = { kind: 'unreadable' };

/** lstat as data, blocking the calling worker. */
function statOutcomeBlocking(absolute: string): StatOutcome {
  try {
    const stats = lstatSync(absolute, walkStatOptions);
    return stats === undefined ? gone : { kind: 'stat', stat: listedStat(stats) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? gone : unreadable;
  }
}

/** Listings are handed over in batches of about this many entries, so the receiver never stalls on one huge message. */
const batchEntries = 2_000;

/**
 * Whether the folder `rel`, whose entries these are, is just as the baseline has it: each entry
 * compared as it is met (files lstat'ed), so that an unchanged folder, most of a walk, costs no
 * listing. Its sub-folders' names go into `folders` (valid when true). False at the first
 * difference; the caller then lists the folder as usual.
 */
function isFolderUnchanged(
  baseline: StatBaseline,
  rel: string,
  dirents: readonly Dirent[],
  prefix: string,
  ignoredFolders: readonly string[],
  folders: string[],
): boolean {
  const check = baseline.folder(rel);
  if (check === undefined) return false;
  for (const dirent of dirents) {
    const { name } = dirent;
    const full = prefix + name;
    const kind = classifyEntry(name, dirent, full, ignoredFolders);
    if (kind.kind === 'omit') continue;
    if (kind.kind === 'stat') {
      let stats;
      try {
        stats = lstatSync(full, walkStatOptions);
      } catch {
        return false;
      }
      if (stats === undefined || !baseline.isSameFile(check, name, stats)) return false;
    } else if (kind.kind === 'folder') {
      if (!baseline.isSameFolder(check, rel, name)) return false;
      folders.push(name);
    } else if (!baseline.isSameSkip(check, name, kind.reason, kind.isFolder)) return false;
  }
  return baseline.isWhole(check);
}

/** One folder's listing, its files lstat'ed; the names of the folders to walk below it go into `folders`. */
function listFolderBlocking(
  rel: string,
  dirents: readonly Dirent[],
  prefix: string,
  ignoredFolders: readonly string[],
  folders: string[],
): FolderListing {
  const entries: ListedEntry[] = [];
  for (const dirent of dirents) {
    const { name } = dirent;
    const full = prefix + name;
    const kind = classifyEntry(name, dirent, full, ignoredFolders);
    if (kind.kind === 'omit') continue;
    if (kind.kind !== 'stat') {
      entries.push(kind);
      if (kind.kind === 'folder') folders.push(name);
      continue;
    }
    const outcome = statOutcomeBlocking(full);
    if (outcome.kind === 'stat' && outcome.stat.isFolder) {
      entries.push({ name, kind: 'folder' });
      folders.push(name);
    } else {
      entries.push({ name, kind: 'file', outcome });
    }
  }
  return { rel, outcome: 'listed', entries };
}

/**
 * Walks a folder and everything below it with blocking calls (readdir, lstat), applying the
 * exclusion rules so that excluded folders are never entered; hands over one listing per folder,
 * parents before children (breadth first), in batches, for the main thread to apply to the
 * directory's state. With `splitAt`, it stops once that many folders wait to be listed and returns
 * them, so that several workers can walk those subtrees side by side; else it returns []. With a
 * `baseline` (the stat cache the state was loaded from), folders that match it are not handed over.
 */
export function walkBlocking(
  root: string,
  startRel: string,
  ignoredFolders: readonly string[],
  onBatch: (listings: FolderListing[]) => void,
  splitAt = Infinity,
  baseline?: StatBaseline,
): string[] {
  let listings: FolderListing[] = [];
  let entriesInBatch = 0;
  const flush = (): void => {
    if (listings.length > 0) onBatch(listings);
    listings = [];
    entriesInBatch = 0;
  };
  // Each folder to walk with its absolute path: a child's is its parent's and its name, joined by hand.
  const pending = [startRel];
  const absolutes = [folderPath(root, startRel)];
  const folders: string[] = [];
  let next = 0;
  while (next < pending.length) {
    if (pending.length - next >= splitAt) break;
    const rel = pending[next] as string;
    const absolute = absolutes[next] as string;
    next += 1;
    if (rel !== '' && ignoredFolders.includes(absolute)) {
      listings.push({ rel, outcome: 'ignored', entries: [] });
      continue;
    }
    let dirents;
    try {
      dirents = readdirSync(absolute, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const outcome = code === 'ENOENT' || code === 'ENOTDIR' ? 'gone' : 'unreadable';
      listings.push(code === undefined ? { rel, outcome, entries: [] } : { rel, outcome, code, entries: [] });
      continue;
    }
    // Names from readdir are single path segments.
    const prefix = absolute.endsWith(path.sep) ? absolute : `${absolute}${path.sep}`;
    folders.length = 0;
    // A folder just as the stat cache has it changes nothing: it stays here.
    const isUnchanged =
      baseline !== undefined && isFolderUnchanged(baseline, rel, dirents, prefix, ignoredFolders, folders);
    if (!isUnchanged) {
      folders.length = 0;
      const listing = listFolderBlocking(rel, dirents, prefix, ignoredFolders, folders);
      listings.push(listing);
      entriesInBatch += listing.entries.length + 1;
    }
    for (const name of folders) {
      pending.push(rel === '' ? name : `${rel}/${name}`);
      absolutes.push(prefix + name);
    }
    if (entriesInBatch >= batchEntries) flush();
  }
  flush();
  return pending.slice(next);
}
