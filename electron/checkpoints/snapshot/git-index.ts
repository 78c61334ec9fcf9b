/**
 * Reads the paths a git index holds (what `git ls-files` lists), without running git: versions 2,
 * 3 and 4 (path prefix compression). Only the paths are decoded; stat data and extensions are
 * skipped. Checked against the trailing SHA-1 of the file, so a torn or damaged index is reported
 * as such and never half-believed. A split index's own part is handed back for the merge with its
 * shared index (`split-index.ts`).
 */
import { createHash } from 'node:crypto';
import { isGitlinkMode, v4Name } from './index-entries';
import { readSplitIndex, type SplitIndex } from './split-index';

/** Why an index could not be read (errors as data). */
export interface GitIndexError {
  readonly code: 'bad-signature' | 'bad-version' | 'truncated' | 'bad-checksum' | 'split-index';
  readonly message: string;
}

/** The fixed part of an entry before its flags: ctime, mtime, dev, ino, mode, uid, gid, size (4 bytes each), the object id (20). */
const fixedBytes = 40 + 20;
const extendedFlag = 0x4000;
const nameMask = 0x0fff;
/** An entry's merge stage (0 outside a conflicted merge). */
const stageMask = 0x3000;

/** The byte after each path in the digest, as in the index's version 2 form. */
const pathEnd = Buffer.from([0]);

function fail(code: GitIndexError['code'], message: string): { readonly error: GitIndexError } {
  return { error: { code, message } };
}

/** What an index lists: its paths, and a digest of them that tells two lists apart without comparing them. */
export interface GitIndexPaths {
  /** In index order; a path with several stages during a merge appears once. */
  readonly paths: string[];
  /** SHA-1 (hex) of every entry's path bytes, each followed by a NUL, in index order (a merge's stages each counted). */
  readonly digest: string;
  /** The paths of gitlink entries (mode 160000): submodules, whatever `.gitmodules` says. */
  readonly gitlinks: readonly string[];
}

/**
 * The paths a git index holds (what `git ls-files` lists), with their digest; for a split index,
 * its own part, to merge with the shared index it names (`mergeSplitIndex`).
 */
export function readGitIndexPaths(
  bytes: Uint8Array,
): GitIndexPaths | { readonly split: SplitIndex } | { readonly error: GitIndexError } {
  if (bytes.length < 12 + 20) return fail('truncated', 'the index is shorter than its header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0) !== 0x44495243) return fail('bad-signature', 'the index does not start with DIRC');
  const version = view.getUint32(4);
  if (version < 2 || version > 4) return fail('bad-version', `index version ${version} is not one git writes`);
  const whole = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const body = whole.subarray(0, whole.length - 20);
  const trailer = whole.subarray(whole.length - 20);
  // git 2.40+ with index.skipHash (feature.manyFiles) writes the null id there: nothing to check, as for git.
  const isHashSkipped = trailer.every((byte) => byte === 0);
  if (!isHashSkipped && !createHash('sha1').update(body).digest().equals(trailer)) {
    return fail('bad-checksum', 'the index checksum does not match its content (damaged or half-written)');
  }
  const count = view.getUint32(8);
  const read = version === 4 ? v4Paths(body, view, count) : v2Paths(body, view, count, version);
  if ('error' in read) return read;
  const link = splitLink(body, view, read.end);
  if (link === undefined) return { paths: read.paths, digest: read.digest, gitlinks: read.gitlinks };
  // A split index (core.splitIndex): its entries are changes to a shared index's, merged once that is read.
  const split = readSplitIndex(bytes, link);
  if (split === undefined) return { paths: read.paths, digest: read.digest, gitlinks: read.gitlinks };
  return 'error' in split ? fail('split-index', `it is a split index that cannot be read: ${split.error}`) : { split };
}

/** The data of the `link` extension (a split index's) among the extensions after the entries (from `offset`). */
function splitLink(body: Buffer, view: DataView, offset: number): Buffer | undefined {
  for (let at = offset; at + 8 <= body.length; at += 8 + view.getUint32(at + 4)) {
    if (body.toString('latin1', at, at + 4) === 'link') return body.subarray(at + 8, at + 8 + view.getUint32(at + 4));
  }
  return undefined;
}

/**
 * Versions 2 and 3: each path's bytes are copied into one buffer, NUL after each (a path never
 * holds one), and decoded once: one string of all the paths split, not a string decoded and kept
 * per entry (less work and far less garbage for a large index).
 */
function v2Paths(
  body: Buffer,
  view: DataView,
  count: number,
  version: number,
): (GitIndexPaths & { readonly end: number }) | { readonly error: GitIndexError } {
  const joined = Buffer.allocUnsafe(body.length);
  let length = 0;
  let hasStages = false;
  let offset = 12;
  const gitlinks: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = offset;
    if (start + fixedBytes + 2 > body.length) return fail('truncated', `the index ends inside entry ${index + 1}`);
    const flags = view.getUint16(start + fixedBytes);
    offset = start + fixedBytes + 2;
    if ((flags & extendedFlag) !== 0 && version >= 3) offset += 2;
    hasStages ||= (flags & stageMask) !== 0;
    const nameLength = flags & nameMask;
    const nul = nameLength < nameMask ? offset + nameLength : body.indexOf(0, offset);
    if (nul < 0 || nul > body.length) return fail('truncated', `the index ends inside entry ${index + 1}`);
    if (isGitlinkMode(view.getUint32(start + 24))) gitlinks.push(body.toString('utf8', offset, nul));
    length += body.copy(joined, length, offset, nul);
    joined[length++] = 0;
    // Entries are padded with 1–8 NULs to a multiple of 8 bytes from the entry's start.
    offset = start + Math.ceil((nul - start + 1) / 8) * 8;
  }
  const digest = createHash('sha1').update(joined.subarray(0, length)).digest('hex');
  if (count === 0) return { paths: [], digest, gitlinks, end: offset };
  const paths = joined.toString('utf8', 0, length - 1).split('\0');
  return { paths: hasStages ? withoutRepeats(paths) : paths, digest, gitlinks, end: offset };
}

/** Version 4: each path is the previous one's start and a suffix, so they are decoded in turn. */
function v4Paths(
  body: Buffer,
  view: DataView,
  count: number,
): (GitIndexPaths & { readonly end: number }) | { readonly error: GitIndexError } {
  const hash = createHash('sha1');
  const paths: string[] = [];
  const gitlinks: string[] = [];
  let offset = 12;
  // The previous path's bytes, not its string: a name that is not UTF-8 would not round-trip.
  let previous: Buffer = Buffer.alloc(0);
  for (let index = 0; index < count; index += 1) {
    const start = offset;
    if (start + fixedBytes + 2 > body.length) return fail('truncated', `the index ends inside entry ${index + 1}`);
    const flags = view.getUint16(start + fixedBytes);
    offset = start + fixedBytes + 2;
    if ((flags & extendedFlag) !== 0) offset += 2;
    const read = v4Name(body, offset, previous);
    if (read === undefined) return fail('truncated', `the index ends inside entry ${index + 1}`);
    offset = read.end;
    hash.update(read.name).update(pathEnd);
    const path = read.name.toString('utf8');
    if (isGitlinkMode(view.getUint32(start + 24))) gitlinks.push(path);
    if (!read.name.equals(previous)) paths.push(path);
    previous = read.name;
  }
  return { paths, digest: hash.digest('hex'), gitlinks, end: offset };
}

/** A path with several stages during a merge appears once (its entries are next to each other). */
function withoutRepeats(paths: string[]): string[] {
  let kept = 0;
  for (let index = 0; index < paths.length; index += 1) {
    const item = paths[index] as string;
    if (kept > 0 && paths[kept - 1] === item) continue;
    paths[kept++] = item;
  }
  paths.length = kept;
  return paths;
}
