/*
 * The walk of a directory with blocking calls, for the hashing worker thread only (see
 * blocking-io.ts for why a worker blocks). Apart from the reading and writing of files, so that a
 * worker that only walks (often all it does) loads no zlib or object code.
 */
/* eslint-disable no-restricted-syntax -- worker-thread-only blocking I/O, see above */
import {
  closeSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  type BigIntStats,
  type Dirent,
} from 'node:fs';
import path from 'node:path';
import {
  classifyEntry,
  folderPath,
  listedStat,
  isReplacedCode,
  unlistedFolder,
  type FolderListing,
  type ListedEntry,
  type StatOutcome,
} from './folder-listing';
import type { StatBaseline } from './stat-baseline';
import type { StoreRules } from './store-rules';
import {
  descriptorAccess,
  expectedPath,
  folderMoved,
  isDescriptorAccess,
  topFolderFlags,
  walkFolderFlags,
} from './walk-descriptor';

/** What decides what a walk enters and stores: Vigil's own folders, and the store rules. */
export interface WalkRules {
  readonly ignoredFolders: readonly string[];
  readonly rules: StoreRules;
}

/** The walk's lstat options and outcomes without data, made once: a walk stats every file. */
const walkStatOptions = { bigint: true, throwIfNoEntry: false } as const;
/**
 * A plain lstat, for comparing a file with the stat cache: node builds a BigIntStats from 14
 * BigInts and their 4 divisions, which costs a 50,000-file walk ~20 ms of CPU more (and garbage).
 */
const compareStatOptions = { throwIfNoEntry: false } as const;
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

/** A bigint lstat, undefined when it fails (the file then differs from its record). */
function exactStat(absolute: string): BigIntStats | undefined {
  try {
    return lstatSync(absolute, walkStatOptions);
  } catch {
    return undefined;
  }
}

/** The kernel's name for the open descriptor `fd` (see walk-descriptor.ts), or undefined where it cannot be asked. */
export function openedPathBlocking(fd: number): string | undefined {
  if (!isDescriptorAccess) return undefined;
  try {
    return readlinkSync(descriptorAccess(fd));
  } catch {
    return undefined;
  }
}

const listOptions = { withFileTypes: true } as const;

/**
 * Lists the folder at `absolute` through a descriptor opened without following a symlink at its name
 * (but at the top) and found to be at `expected`: throws ELOOP or ENOTDIR (a symlink or file is
 * there now) or EMOVED (an agent swapped a folder on its way for a symlink).
 */
function readFolderBlocking(absolute: string, expected: string | undefined, isTop: boolean): Dirent[] {
  if (expected === undefined) return readdirSync(absolute, listOptions);
  const fd = openSync(absolute, isTop ? topFolderFlags : walkFolderFlags);
  try {
    const opened = openedPathBlocking(fd);
    if (opened === undefined) return readdirSync(absolute, listOptions);
    if (opened !== expected) throw folderMoved(absolute);
    return readdirSync(descriptorAccess(fd), listOptions);
  } finally {
    closeSync(fd);
  }
}

/** Lists a folder as `readFolderBlocking` does, or says what to record instead (see `unlistedFolder`). */
function listedOrNot(absolute: string, rel: string, realRoot: string | undefined): Dirent[] | FolderListing {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return readFolderBlocking(absolute, realRoot === undefined ? undefined : expectedPath(realRoot, rel), rel === '');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const recorded = unlistedFolder(
        rel,
        code,
        isReplacedCode(code) ? statOutcomeBlocking(absolute) : undefined,
        attempt,
      );
      if (recorded !== undefined) return recorded;
    }
  }
}

/** The workspace's real path, which every folder listed must be below (undefined: not checked here). */
function realRootBlocking(root: string): string | undefined {
  if (!isDescriptorAccess) return undefined;
  try {
    return realpathSync(root);
  } catch {
    return undefined;
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
  walkRules: WalkRules,
  folders: string[],
): boolean {
  const check = baseline.folder(rel);
  if (check === undefined) return false;
  for (const dirent of dirents) {
    const { name } = dirent;
    const full = prefix + name;
    const kind = classifyEntry(name, dirent, full, walkRules.ignoredFolders, walkRules.rules, rel);
    if (kind.kind === 'omit') continue;
    if (kind.kind === 'stat') {
      let stats;
      try {
        stats = lstatSync(full, compareStatOptions);
      } catch {
        return false;
      }
      if (stats === undefined || !baseline.isSameFile(check, name, stats, () => exactStat(full))) return false;
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
  walkRules: WalkRules,
  folders: string[],
): FolderListing {
  const entries: ListedEntry[] = [];
  for (const dirent of dirents) {
    const { name } = dirent;
    const full = prefix + name;
    const kind = classifyEntry(name, dirent, full, walkRules.ignoredFolders, walkRules.rules, rel);
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
  walkRules: WalkRules,
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
  const realRoot = realRootBlocking(root);
  let next = 0;
  while (next < pending.length) {
    if (pending.length - next >= splitAt) break;
    const rel = pending[next] as string;
    const absolute = absolutes[next] as string;
    next += 1;
    if (rel !== '' && walkRules.ignoredFolders.includes(absolute)) {
      listings.push({ rel, outcome: 'ignored', entries: [] });
      continue;
    }
    const dirents = listedOrNot(absolute, rel, realRoot);
    if (!Array.isArray(dirents)) {
      listings.push(dirents);
      continue;
    }
    // Names from readdir are single path segments.
    const prefix = absolute.endsWith(path.sep) ? absolute : `${absolute}${path.sep}`;
    folders.length = 0;
    // A folder just as the stat cache has it changes nothing: it stays here.
    const isUnchanged = baseline !== undefined && isFolderUnchanged(baseline, rel, dirents, prefix, walkRules, folders);
    if (!isUnchanged) {
      folders.length = 0;
      const listing = listFolderBlocking(rel, dirents, prefix, walkRules, folders);
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
