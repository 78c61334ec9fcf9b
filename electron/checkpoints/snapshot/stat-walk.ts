import type { BigIntStats, Dirent } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode, isVigilBookkeepingFile } from '../../files';
import { isPathBelow } from '../../lib';
import type { DirState } from './dir-state';
import type { StoreRules } from './store-rules';
import {
  createGate,
  descriptorAccess,
  expectedPath,
  folderMoved,
  openedPath,
  realRootOf,
  topFolderFlags,
  walkFolderFlags,
} from './walk-descriptor';
import {
  applyFileOutcome,
  applyFolderListing,
  classifyEntry,
  folderPath,
  isBadName,
  listedStat,
  isReplacedCode,
  unlistedFolder,
  type FolderListing,
  type HashCandidate,
  type ListedEntry,
  type StatOutcome,
} from './folder-listing';

export { modeOfStat, racyWindowNs, type HashCandidate } from './folder-listing';

/** What a scan needs: the directory, its state, and the rules. */
export interface ScanContext {
  readonly root: string;
  readonly state: DirState;
  readonly maxFileBytes: number;
  /** Absolute folders never entered (Vigil's own data folder when it sits inside the directory). */
  readonly ignoredFolders: readonly string[];
  /** What is stored: tracked files, the repository's ignore rules, Vigil's built-in names. */
  readonly rules: StoreRules;
}

/** Runs async work with bounded concurrency, reusing a fixed set of runners. */
async function eachLimit<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runner = async (): Promise<void> => {
    while (next < items.length) await task(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
}

/** lstat as data: the stat, or whether the path is gone or unreadable. */
async function statOutcome(absolute: string): Promise<StatOutcome> {
  let stats: BigIntStats;
  try {
    stats = await lstat(absolute, { bigint: true });
  } catch (error) {
    const code = errnoCode(error);
    return code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'gone' } : { kind: 'unreadable' };
  }
  return { kind: 'stat', stat: listedStat(stats) };
}

/** The workspace's real path for a scan, resolved once per scan (see walk-descriptor.ts). */
const realRoots = new WeakMap<ScanContext, Promise<string | undefined>>();

function realRootFor(context: ScanContext): Promise<string | undefined> {
  let real = realRoots.get(context);
  if (real === undefined) realRoots.set(context, (real = realRootOf(context.root)));
  return real;
}

/** Folders held open at once by every walk of this thread together (see `createGate`). */
const openFolders = createGate(16);

/** Lists a folder through a descriptor opened without following a symlink at its name (but at the top) and found where it should be. */
function readFolder(absolute: string, expected: string | undefined, isTop: boolean): Promise<Dirent[]> {
  if (expected === undefined) return readdir(absolute, { withFileTypes: true });
  return openFolders(() => readOpenedFolder(absolute, expected, isTop));
}

/** `readFolder` through a descriptor, held open only here. */
async function readOpenedFolder(absolute: string, expected: string, isTop: boolean): Promise<Dirent[]> {
  const handle = await open(absolute, isTop ? topFolderFlags : walkFolderFlags);
  try {
    const opened = await openedPath(handle.fd);
    if (opened === undefined) return await readdir(absolute, { withFileTypes: true });
    if (opened !== expected) throw folderMoved(absolute);
    return await readdir(descriptorAccess(handle.fd), { withFileTypes: true });
  } finally {
    await handle.close();
  }
}

/** The folder's entries, or what to record instead when it cannot be listed where it should be (see `unlistedFolder`). */
async function listedOrNot(context: ScanContext, rel: string, absolute: string): Promise<Dirent[] | FolderListing> {
  const realRoot = await realRootFor(context);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await readFolder(absolute, realRoot === undefined ? undefined : expectedPath(realRoot, rel), rel === '');
    } catch (error) {
      const code = errnoCode(error);
      const now = isReplacedCode(code) ? await statOutcome(absolute) : undefined;
      const recorded = unlistedFolder(rel, code, now, attempt);
      if (recorded !== undefined) return recorded;
    }
  }
}

/** Lists one folder with asynchronous calls (files lstat'ed 32 at a time). */
async function listFolder(context: ScanContext, rel: string): Promise<FolderListing> {
  const absolute = folderPath(context.root, rel);
  if (rel !== '' && context.ignoredFolders.includes(absolute)) return { rel, outcome: 'ignored', entries: [] };
  const dirents = await listedOrNot(context, rel, absolute);
  if (!Array.isArray(dirents)) return dirents;
  const entries: ListedEntry[] = [];
  const toStat: string[] = [];
  for (const dirent of dirents) {
    const kind = classifyEntry(
      dirent.name,
      dirent,
      path.join(absolute, dirent.name),
      context.ignoredFolders,
      context.rules,
      rel,
    );
    if (kind.kind === 'stat') toStat.push(dirent.name);
    else if (kind.kind !== 'omit') entries.push(kind);
  }
  await eachLimit(toStat, 32, async (name) => {
    entries.push({ name, kind: 'file', outcome: await statOutcome(path.join(absolute, name)) });
  });
  return { rel, outcome: 'listed', entries };
}

/**
 * Compares the folder `rel` and everything below it with the state: vanished entries are removed,
 * exclusions and oversize files recorded, and every file whose stat differs from its record (or
 * is racy) returned for hashing.
 */
export async function scanFolder(context: ScanContext, rel: string, out: HashCandidate[]): Promise<void> {
  const folders = applyFolderListing(context.state, await listFolder(context, rel), context.maxFileBytes, out);
  await eachLimit(folders, 4, (folder) => scanFolder(context, folder, out));
}

/** Applies a walk made elsewhere (a worker's blocking walk), parents before children. */
export function applyListings(context: ScanContext, listings: readonly FolderListing[], out: HashCandidate[]): void {
  for (const listing of listings) applyFolderListing(context.state, listing, context.maxFileBytes, out);
}

/**
 * Re-checks only the given paths (from Vigil's own writes and the watcher): a vanished path is
 * removed (a folder with all it held), a folder is scanned, a file compared with its record. With
 * `isForced` (a restore point's files the restore will overwrite), files are stored whatever the
 * exclusion rules say; the size cap still holds.
 */
export async function scanPaths(
  context: ScanContext,
  rels: Iterable<string>,
  out: HashCandidate[],
  isForced = false,
): Promise<void> {
  const unique = [...new Set(rels)].filter((rel) => rel !== '' && !isVigilBookkeepingFile(path.basename(rel)));
  await eachLimit(unique, 32, async (rel) => {
    const parts = rel.split('/');
    if (parts.some(isBadName)) return;
    const parent = parts.slice(0, -1).join('/');
    // Inside an excluded folder, the folder itself is what is recorded.
    if (!isForced && parent !== '' && context.rules.pathExclusion(parent, true) !== undefined) return;
    const absolute = path.join(context.root, rel);
    if (context.ignoredFolders.includes(absolute)) {
      context.state.setSkipped(rel, 'excluded', true);
      return;
    }
    // Only an ignored folder inside the checkpointed one hides paths: $VIGIL_HOME/memories is checkpointed though $VIGIL_HOME is ignored.
    if (context.ignoredFolders.some((folder) => isPathBelow(folder, context.root) && isPathBelow(absolute, folder)))
      return;
    const outcome = await statOutcome(absolute);
    const name = parts.at(-1) ?? rel;
    if (outcome.kind === 'stat' && outcome.stat.isFolder) {
      if (isForced) return;
      const reason = context.rules.folderExclusion(rel, name);
      if (reason !== undefined) context.state.setSkipped(rel, reason, true);
      else await scanFolder(context, rel, out);
      return;
    }
    const reason = outcome.kind === 'stat' && !isForced ? context.rules.fileExclusion(rel, name) : undefined;
    if (reason !== undefined) context.state.setSkipped(rel, reason, false);
    else if (applyFileOutcome(context.state, rel, outcome, context.maxFileBytes, out) === 'folder')
      await scanFolder(context, rel, out);
  });
}
