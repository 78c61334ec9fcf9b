import type { BigIntStats, Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from '../files/file-system-error';
import { isVigilTempFile } from '../files/vigil-temp-name';
import type { DirState, FileRecord } from './dir-state';
import { directoryExclusion, fileExclusion, pathExclusion } from './exclusion-rules';
import { fileModes, type FileMode } from './git-objects';

/**
 * How close (ns) to a scan's start a file's mtime must be for its record to be "racy" (re-hashed
 * next time even if its stat matches): git's racy-entry rule. A whole-second mtime may come from a
 * file system with 1–2 s timestamps (FAT, SMB, HFS+), so it gets 2 s; finer timestamps get 50 ms,
 * which covers the kernel's coarse clock tick.
 */
export function racyWindowNs(mtimeNs: bigint): bigint {
  return mtimeNs % 1_000_000_000n === 0n ? 2_000_000_000n : 50_000_000n;
}

/** What a scan needs: the directory, its state, and the rules. */
export interface ScanContext {
  readonly root: string;
  readonly state: DirState;
  readonly maxFileBytes: number;
  /** Absolute folders never entered (Vigil's own data folder when it sits inside the directory). */
  readonly ignoredFolders: readonly string[];
}

/** A file whose content must be (re-)hashed. */
export interface HashCandidate {
  readonly rel: string;
  readonly isSymlink: boolean;
  readonly mode: FileMode;
  /** The blob the file had at the last checkpoint, to count its changed lines against. */
  readonly oldOid?: string;
}

/** The stat fields a record is compared on. */
export function recordFromStat(stats: BigIntStats, oid: string, mode: FileMode): FileRecord {
  return { mode, oid, size: Number(stats.size), mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs, ino: stats.ino };
}

/** The git mode of a file: a symlink, or executable when the owner may run it (never on Windows). */
export function modeOfStat(stats: BigIntStats): FileMode {
  if (stats.isSymbolicLink()) return fileModes.symlink;
  return process.platform !== 'win32' && (stats.mode & 0o100n) !== 0n ? fileModes.executable : fileModes.file;
}

/** Whether a stat still matches its record and the record is old enough to be trusted. */
function isUnchanged(record: FileRecord | undefined, stats: BigIntStats, mode: FileMode, stampNs: bigint): boolean {
  return (
    record !== undefined &&
    record.mode === mode &&
    record.size === Number(stats.size) &&
    record.mtimeNs === stats.mtimeNs &&
    record.ctimeNs === stats.ctimeNs &&
    record.ino === stats.ino &&
    record.mtimeNs < stampNs - racyWindowNs(record.mtimeNs)
  );
}

/** A name that did not survive decoding (not valid UTF-8) cannot be stored faithfully. */
function isBadName(name: string): boolean {
  return name.includes('\uFFFD') || name.includes('/') || name.includes('\\');
}

/** Runs async work with bounded concurrency, reusing a fixed set of runners. */
async function eachLimit<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runner = async (): Promise<void> => {
    while (next < items.length) await task(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
}

/**
 * Compares the folder `rel` and everything below it with the state: vanished entries are removed,
 * exclusions and oversize files recorded, and every file whose stat differs from its record (or
 * is racy) returned for hashing. Files are lstat'ed with bounded concurrency.
 */
export async function scanFolder(context: ScanContext, rel: string, out: HashCandidate[]): Promise<void> {
  const absolute = rel === '' ? context.root : path.join(context.root, rel);
  // Vigil's own data folder inside a checkpointed directory is never stored (it holds tokens and the store itself).
  if (rel !== '' && context.ignoredFolders.includes(absolute)) {
    context.state.setSkipped(rel, 'excluded', true);
    return;
  }
  let entries: Dirent[];
  try {
    entries = await readdir(absolute, { withFileTypes: true });
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      if (rel !== '') context.state.remove(rel);
      return;
    }
    if (rel === '') throw error;
    context.state.setSkipped(rel, 'unreadable', true);
    return;
  }
  const { state } = context;
  state.ensureFolder(rel);
  const seen = new Set<string>();
  const folders: string[] = [];
  const files: Dirent[] = [];
  for (const entry of entries) {
    const name = entry.name;
    const child = rel === '' ? name : `${rel}/${name}`;
    if (isVigilTempFile(name)) continue;
    seen.add(name);
    if (isBadName(name)) state.setSkipped(child, 'bad-name', entry.isDirectory());
    else if (entry.isDirectory()) {
      const reason = directoryExclusion(name);
      if (reason !== undefined) state.setSkipped(child, reason, true);
      else folders.push(child);
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      const reason = fileExclusion(name);
      if (reason !== undefined) state.setSkipped(child, reason, false);
      else files.push(entry);
    } else {
      state.setSkipped(child, 'special', false);
    }
  }
  for (const name of state.names(rel)) if (!seen.has(name)) state.remove(rel === '' ? name : `${rel}/${name}`);
  await eachLimit(files, 32, async (entry) => {
    await checkFile(context, rel === '' ? entry.name : `${rel}/${entry.name}`, out);
  });
  await eachLimit(folders, 4, (folder) => scanFolder(context, folder, out));
}

/** Compares one file with its record; records a skip or queues it for hashing when it differs. */
async function checkFile(context: ScanContext, rel: string, out: HashCandidate[]): Promise<void> {
  let stats: BigIntStats;
  try {
    stats = await lstat(path.join(context.root, rel), { bigint: true });
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') context.state.remove(rel);
    else context.state.setSkipped(rel, 'unreadable', false);
    return;
  }
  if (stats.isDirectory()) {
    await scanFolder(context, rel, out);
    return;
  }
  if (!stats.isFile() && !stats.isSymbolicLink()) {
    context.state.setSkipped(rel, 'special', false);
    return;
  }
  if (stats.isFile() && Number(stats.size) > context.maxFileBytes) {
    context.state.setSkipped(rel, 'oversize', false);
    return;
  }
  const mode = modeOfStat(stats);
  const record = context.state.file(rel);
  if (isUnchanged(record, stats, mode, context.state.stampNs)) return;
  out.push(record === undefined ? { rel, isSymlink: stats.isSymbolicLink(), mode } : { rel, isSymlink: stats.isSymbolicLink(), mode, oldOid: record.oid });
}

/**
 * Re-checks only the given paths (from Vigil's own writes and the watcher): a vanished path is
 * removed (a folder with all it held), a folder is scanned, a file compared with its record.
 */
export async function scanPaths(context: ScanContext, rels: Iterable<string>, out: HashCandidate[]): Promise<void> {
  const unique = [...new Set(rels)].filter((rel) => rel !== '' && !isVigilTempFile(path.basename(rel)));
  await eachLimit(unique, 32, async (rel) => {
    const parts = rel.split('/');
    if (parts.some(isBadName)) return;
    // Inside an excluded folder, the folder itself is what is recorded.
    if (pathExclusion(parts.slice(0, -1).join('/')) !== undefined) return;
    const absolute = path.join(context.root, rel);
    if (context.ignoredFolders.includes(absolute)) {
      context.state.setSkipped(rel, 'excluded', true);
      return;
    }
    if (context.ignoredFolders.some((folder) => absolute.startsWith(`${folder}${path.sep}`))) return;
    let stats: BigIntStats;
    try {
      stats = await lstat(absolute, { bigint: true });
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') context.state.remove(rel);
      else context.state.setSkipped(rel, 'unreadable', false);
      return;
    }
    const name = parts.at(-1) ?? rel;
    if (stats.isDirectory()) {
      const reason = directoryExclusion(name);
      if (reason !== undefined) context.state.setSkipped(rel, reason, true);
      else await scanFolder(context, rel, out);
      return;
    }
    const reason = fileExclusion(name);
    if (reason !== undefined) context.state.setSkipped(rel, reason, false);
    else await checkFile(context, rel, out);
  });
}
