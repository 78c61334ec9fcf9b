import { constants, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { isVigilBookkeepingFile } from '../../files';
import type { SkipReason } from '../checkpoint-types';
import type { DirState, FileRecord } from './dir-state';
import type { StoreRules } from './store-rules';
import { fileModes, type FileMode } from '../../git-store';

/**
 * What a walk of one folder found, as plain data: produced with asynchronous calls on the main
 * thread or with blocking calls in a worker, and applied to a directory's state by the same code.
 */
export interface FolderListing {
  readonly rel: string;
  readonly outcome: 'listed' | 'ignored' | 'gone' | 'unreadable' | 'replaced';
  /** The errno code when the folder could not be read. */
  readonly code?: string;
  /** With `replaced`: what its name holds now, a symlink or file swapped in while the walk ran (stored as what it is). */
  readonly now?: ListedStat;
  readonly entries: readonly ListedEntry[];
}

/** One entry of a folder listing. */
export type ListedEntry =
  | { readonly name: string; readonly kind: 'skip'; readonly reason: SkipReason; readonly isFolder: boolean }
  | { readonly name: string; readonly kind: 'folder' }
  | { readonly name: string; readonly kind: 'file'; readonly outcome: StatOutcome };

/** The lstat of a file, or why there is none. */
export type StatOutcome =
  { readonly kind: 'stat'; readonly stat: ListedStat } | { readonly kind: 'gone' } | { readonly kind: 'unreadable' };

/** The fields of an lstat a snapshot needs. */
export interface ListedStat {
  readonly size: number;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly ino: bigint;
  readonly mode: FileMode;
  readonly isFile: boolean;
  readonly isSymlink: boolean;
  readonly isFolder: boolean;
}

/** A file that must be (re-)hashed. */
export interface HashCandidate {
  readonly rel: string;
  readonly isSymlink: boolean;
  readonly mode: FileMode;
  /** The blob the file had at the last checkpoint, to count its changed lines against. */
  readonly oldOid?: string;
  /** The lstat the walk just took of it: the reader's first look, which a read of a changed or swapped file finds stale. */
  readonly listed?: ListedStat;
}

/** The git mode of a file: a symlink, or executable when the owner may run it (never on Windows). */
export function modeOfStat(stats: BigIntStats): FileMode {
  return gitModeOf(Number(stats.mode));
}

const { S_IFMT, S_IFREG, S_IFLNK, S_IFDIR } = constants;

/**
 * The fields of an lstat a snapshot needs. The type bits are read from the mode as one number
 * (what `isFile()` and the like compute, each with BigInt arithmetic of its own): a walk calls
 * this once per file.
 */
export function listedStat(stats: BigIntStats): ListedStat {
  const mode = Number(stats.mode);
  const type = mode & S_IFMT;
  return {
    size: Number(stats.size),
    mtimeNs: stats.mtimeNs,
    ctimeNs: stats.ctimeNs,
    ino: stats.ino,
    mode: gitModeOf(mode),
    isFile: type === S_IFREG,
    isSymlink: type === S_IFLNK,
    isFolder: type === S_IFDIR,
  };
}

/** The git mode of a file or symlink whose lstat mode (as one number) this is (see `modeOfStat`). */
export function gitModeOf(mode: number): FileMode {
  if ((mode & S_IFMT) === S_IFLNK) return fileModes.symlink;
  return process.platform !== 'win32' && (mode & 0o100) !== 0 ? fileModes.executable : fileModes.file;
}

/** The widest racy window (`racyWindowNs`'s). */
export const maxRacyWindowNs = 2_000_000_000n;

/**
 * How close (ns) to a scan's start a file's mtime must be for its record to be "racy" (re-hashed
 * next time even if its stat matches): git's racy-entry rule. A whole-second mtime may come from a
 * file system with 1–2 s timestamps (FAT, SMB, HFS+), so it gets 2 s; finer timestamps get 50 ms,
 * which covers the kernel's coarse clock tick.
 */
export function racyWindowNs(mtimeNs: bigint): bigint {
  return mtimeNs % 1_000_000_000n === 0n ? maxRacyWindowNs : 50_000_000n;
}

/** Whether a stat still matches its record and the record is old enough to be trusted. */
function isUnchanged(record: FileRecord | undefined, stat: ListedStat, stampNs: bigint): boolean {
  return (
    record !== undefined &&
    record.mode === stat.mode &&
    record.size === stat.size &&
    record.mtimeNs === stat.mtimeNs &&
    record.ctimeNs === stat.ctimeNs &&
    record.ino === stat.ino &&
    !isRacy(record.mtimeNs, stampNs)
  );
}

/** Whether a record whose file has this mtime is racy for a scan that began at `stampNs` (git's racy-entry rule). */
export function isRacy(mtimeNs: bigint, stampNs: bigint): boolean {
  return mtimeNs >= stampNs - racyWindowNs(mtimeNs);
}

/**
 * Keeps git's racy-entry guarantee across snapshots that look at only some files (the watched,
 * dirty-paths-only kind): `racy` holds the records the previous snapshot hashed that were racy
 * under its stamp. Those still in the state unchanged (this snapshot did not hash them again: it
 * did not look at them) get an impossible ctime — git "smudges" such index entries — so that once
 * the stamp moves on, whichever scan sees them next (a watcher event, the full walk at the next
 * start) re-hashes them instead of trusting a stat that a same-size edit within the timestamp
 * granularity leaves unchanged. Yields now and then: after a bulk change the list can be long.
 */
export async function smudgeRacyRecords(state: DirState, racy: ReadonlyMap<string, FileRecord>): Promise<void> {
  let count = 0;
  for (const [rel, record] of racy) {
    if (state.file(rel) === record && record.ctimeNs !== -1n) state.setFile(rel, { ...record, ctimeNs: -1n });
    if (++count % 2_000 === 0) await yieldToLoop();
  }
}

/** A name that did not survive decoding (not valid UTF-8) cannot be stored faithfully. */
export function isBadName(name: string): boolean {
  return name.includes('\uFFFD') || name.includes('/') || name.includes('\\');
}

/** The answer for an entry to stat: one object for every such entry (a walk classifies every name). */
const toStat = { kind: 'stat' } as const;

/** What to do with a directory entry before any stat: leave it out, record a skip, walk it, or stat it. */
export function classifyEntry(
  name: string,
  type: { isDirectory(): boolean; isFile(): boolean; isSymbolicLink(): boolean },
  absolute: string,
  ignoredFolders: readonly string[],
  rules: StoreRules,
  parentRel: string,
): { readonly kind: 'omit' } | Exclude<ListedEntry, { kind: 'file' }> | { readonly kind: 'stat' } {
  const rel = (): string => (parentRel === '' ? name : `${parentRel}/${name}`);
  // Most entries: a regular file whose name has no dot first (so is not Vigil's own) and no separator.
  if (name.charCodeAt(0) !== 0x2e && type.isFile() && !isBadName(name)) {
    const reason = rules.fileExclusion(rel(), name);
    return reason === undefined ? toStat : { name, kind: 'skip', reason, isFolder: false };
  }
  if (isVigilBookkeepingFile(name)) return { kind: 'omit' };
  const isFolder = type.isDirectory();
  if (isBadName(name)) return { name, kind: 'skip', reason: 'bad-name', isFolder };
  if (isFolder) {
    // Vigil's own data folder inside a checkpointed directory is never stored (it holds tokens and the store itself).
    const reason = ignoredFolders.includes(absolute) ? 'excluded' : rules.folderExclusion(rel(), name);
    return reason === undefined ? { name, kind: 'folder' } : { name, kind: 'skip', reason, isFolder: true };
  }
  if (type.isFile() || type.isSymbolicLink()) {
    const reason = rules.fileExclusion(rel(), name);
    return reason === undefined ? toStat : { name, kind: 'skip', reason, isFolder: false };
  }
  return { name, kind: 'skip', reason: 'special', isFolder: false };
}

/**
 * Applies one file's lstat to the state: a vanished file is removed, an unreadable, special or
 * oversize one recorded as skipped, and one whose stat differs from its record (or is racy) queued
 * for hashing. Returns 'folder' when the path turned out to be a folder (the caller walks it).
 */
export function applyFileOutcome(
  state: DirState,
  rel: string,
  outcome: StatOutcome,
  maxFileBytes: number,
  out: HashCandidate[],
): 'folder' | undefined {
  if (outcome.kind === 'gone') state.remove(rel);
  else if (outcome.kind === 'unreadable') state.setSkipped(rel, 'unreadable', false);
  else {
    const { stat } = outcome;
    if (stat.isFolder) return 'folder';
    if (!stat.isFile && !stat.isSymlink) state.setSkipped(rel, 'special', false);
    else if (stat.isFile && stat.size > maxFileBytes) state.setSkipped(rel, 'oversize', false);
    else {
      const record = state.file(rel);
      if (isUnchanged(record, stat, state.stampNs)) return undefined;
      const candidate = { rel, isSymlink: stat.isSymlink, mode: stat.mode, listed: stat };
      out.push(record === undefined ? candidate : { ...candidate, oldOid: record.oid });
    }
  }
  return undefined;
}

/**
 * Applies a folder's listing to the state: entries that vanished are removed, skips recorded,
 * files compared with their records. Returns the sub-folders to walk next (relative paths).
 */
export function applyFolderListing(
  state: DirState,
  listing: FolderListing,
  maxFileBytes: number,
  out: HashCandidate[],
): string[] {
  const { rel } = listing;
  const child = (name: string): string => (rel === '' ? name : `${rel}/${name}`);
  if (listing.outcome === 'ignored') {
    state.setSkipped(rel, 'excluded', true);
    return [];
  }
  if (listing.outcome === 'gone') {
    if (rel !== '') state.remove(rel);
    return [];
  }
  if (listing.outcome === 'replaced' && listing.now !== undefined) {
    // Not what it points at: a folder's name that holds a symlink now is stored as that link.
    state.remove(rel);
    applyFileOutcome(state, rel, { kind: 'stat', stat: listing.now }, maxFileBytes, out);
    return [];
  }
  if (listing.outcome !== 'listed') {
    if (rel === '')
      throw Object.assign(new Error(`cannot read the checkpointed folder (${listing.code ?? 'error'})`), {
        code: listing.code ?? 'EACCES',
      });
    state.setSkipped(rel, 'unreadable', true);
    return [];
  }
  state.ensureFolder(rel);
  const seen = new Set<string>();
  const folders: string[] = [];
  for (const entry of listing.entries) {
    seen.add(entry.name);
    if (entry.kind === 'skip') state.setSkipped(child(entry.name), entry.reason, entry.isFolder);
    else if (entry.kind === 'folder') folders.push(child(entry.name));
    else if (applyFileOutcome(state, child(entry.name), entry.outcome, maxFileBytes, out) === 'folder')
      folders.push(child(entry.name));
  }
  for (const name of state.names(rel)) if (!seen.has(name)) state.remove(child(name));
  return folders;
}

/** Whether an error of listing a folder means its name is to be looked at again: a symlink or file is there, or the folder opened is elsewhere. */
export function isReplacedCode(code: string | undefined): code is string {
  return code === 'ELOOP' || code === 'ENOTDIR' || code === 'EMOVED';
}

/** A folder is listed again this many times while it is not where it should be (an agent swapping it back and forth). */
const maxListings = 3;

/**
 * What the failed listing `attempt` of a folder (errno `code`) leads to, given what an lstat of its
 * name found since (`now`, for `isReplacedCode` errors only): undefined to list it again (a folder
 * is there, elsewhere than it should be, tried fewer than `maxListings` times); else what to record:
 * a symlink or file there is stored as what it is, never followed; a folder still not where it
 * should be is unreadable.
 */
export function unlistedFolder(
  rel: string,
  code: string | undefined,
  now: StatOutcome | undefined,
  attempt: number,
): FolderListing | undefined {
  if (now?.kind === 'stat' && now.stat.isFolder && attempt < maxListings) return undefined;
  if (rel !== '' && now?.kind === 'stat' && !now.stat.isFolder)
    return { rel, outcome: 'replaced', now: now.stat, entries: [] };
  const outcome = code === 'ENOENT' || now?.kind === 'gone' ? 'gone' : 'unreadable';
  return code === undefined ? { rel, outcome, entries: [] } : { rel, outcome, code, entries: [] };
}

/** The absolute path of a folder of the walk. */
export function folderPath(root: string, rel: string): string {
  return rel === '' ? root : path.join(root, ...rel.split('/'));
}
