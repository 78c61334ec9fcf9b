/**
 * A split index (`core.splitIndex`, git's `split-index.c`) read as git reads it: most entries sit
 * in the shared index `sharedindex.<id>`, and `.git/index` holds the changes, with a `link`
 * extension naming the shared index by its checksum and holding two EWAH bitmaps over the shared
 * entries, delete then replace. The n-th set bit of the replace bitmap takes the split index's
 * n-th entry (stored with an empty name: it keeps the shared entry's); deleted shared entries are
 * dropped; the split index's remaining entries are added, in order of name then stage.
 */
import { createHash } from 'node:crypto';
import { readEwahBitmap } from './ewah-bitmap';
import { readIndexEntries, type IndexEntry } from './index-entries';

/** The part of a split index `.git/index` holds: the shared index it names and its own entries and bitmaps. */
export interface SplitIndex {
  /** The shared index's checksum (hex), which names its file `sharedindex.<id>` beside the index. */
  readonly sharedId: string;
  readonly entries: readonly IndexEntry[];
  /** The link extension's bitmaps (delete, then replace), decoded in the merge against the shared entries. */
  readonly bitmaps: Buffer;
}

/** A merged list of paths, as `git-index.ts` gives a whole index's. */
export interface MergedPaths {
  readonly paths: string[];
  readonly digest: string;
  readonly gitlinks: readonly string[];
}

const idBytes = 20;

/**
 * The split part of an index whose `link` extension is `link` (`bytes` the whole index, already
 * checked), or undefined when its shared id is null: git then takes the index's entries alone.
 */
export function readSplitIndex(bytes: Uint8Array, link: Buffer): SplitIndex | undefined | { readonly error: string } {
  if (link.length < idBytes) return { error: 'its link extension is too short' };
  const sharedId = link.subarray(0, idBytes);
  if (sharedId.every((byte) => byte === 0)) return undefined;
  const read = readIndexEntries(bytes);
  if ('error' in read) return read;
  return { sharedId: sharedId.toString('hex'), entries: read.entries, bitmaps: link.subarray(idBytes) };
}

/** The paths of a split index merged with its shared index's bytes, or what is wrong with either. */
export function mergeSplitIndex(split: SplitIndex, sharedBytes: Uint8Array): MergedPaths | { readonly error: string } {
  const shared = readIndexEntries(sharedBytes);
  if ('error' in shared) return { error: `the shared index is unreadable: ${shared.error}` };
  if (shared.checksum !== split.sharedId)
    return { error: `the shared index's checksum is ${shared.checksum}, not the ${split.sharedId} its name says` };
  const base: (IndexEntry | undefined)[] = shared.entries.slice();
  const { bitmaps } = split;
  let replaced = 0;
  if (bitmaps.length > 0) {
    const deleted = readEwahBitmap(bitmaps, 0, base.length);
    if ('error' in deleted) return { error: `the index's delete bitmap is damaged: ${deleted.error}` };
    const replacing = readEwahBitmap(bitmaps, deleted.end, base.length);
    if ('error' in replacing) return { error: `the index's replace bitmap is damaged: ${replacing.error}` };
    if (replacing.end !== bitmaps.length) return { error: "the index's link extension has bytes past its bitmaps" };
    for (const position of replacing.bits) {
      const entry = split.entries[replaced];
      if (entry === undefined) return { error: "the index's replace bitmap names more entries than it holds" };
      if (entry.name.length > 0) return { error: `the index's replacing entry ${replaced + 1} has a name` };
      // A replacing entry keeps the shared entry's name and takes its own stage (git's copy_cache_entry).
      base[position] = {
        name: (shared.entries[position] as IndexEntry).name,
        stage: entry.stage,
        isGitlink: entry.isGitlink,
      };
      replaced += 1;
    }
    // After the replacements, as git does (it marks, then drops): positions are the shared index's.
    for (const position of deleted.bits) base[position] = undefined;
  }
  const added = split.entries.slice(replaced);
  if (added.some((entry) => entry.name.length === 0)) return { error: 'an entry the index adds has no name' };
  return pathsOf(
    mergeSorted(
      base.filter((entry) => entry !== undefined),
      added,
    ),
  );
}

/** git's index order: path bytes, then stage. */
function compareEntries(left: IndexEntry, right: IndexEntry): number {
  return Buffer.compare(left.name, right.name) || left.stage - right.stage;
}

/**
 * The shared entries kept (in order) with the added ones put in as git's add_index_entry puts
 * them: one with the same name and stage replaces the shared one, and a stage-0 entry replaces
 * every stage of its path (a resolved conflict).
 */
function mergeSorted(kept: readonly IndexEntry[], added: readonly IndexEntry[]): IndexEntry[] {
  const adding = isSorted(added) ? added : [...added].sort(compareEntries);
  const merged: IndexEntry[] = [];
  let keptAt = 0;
  for (const entry of adding) {
    while (keptAt < kept.length && compareEntries(kept[keptAt] as IndexEntry, entry) < 0)
      merged.push(kept[keptAt++] as IndexEntry);
    // Left: the same path at this stage or a later one (a stage-0 entry sorts first and takes them all).
    while (keptAt < kept.length && (kept[keptAt] as IndexEntry).name.equals(entry.name)) {
      if (entry.stage !== 0 && (kept[keptAt] as IndexEntry).stage !== entry.stage) break;
      keptAt += 1;
    }
    merged.push(entry);
  }
  for (; keptAt < kept.length; keptAt += 1) merged.push(kept[keptAt] as IndexEntry);
  return merged;
}

function isSorted(entries: readonly IndexEntry[]): boolean {
  for (let index = 1; index < entries.length; index += 1)
    if (compareEntries(entries[index - 1] as IndexEntry, entries[index] as IndexEntry) >= 0) return false;
  return true;
}

/**
 * The paths (each once, whatever its stages) and the digest `git-index.ts` gives: every entry's path
 * and a NUL, hashed and decoded as one buffer (as that reader does), not one string per entry.
 */
function pathsOf(entries: readonly IndexEntry[]): MergedPaths {
  let length = 0;
  for (const entry of entries) length += entry.name.length + 1;
  const joined = Buffer.allocUnsafe(length);
  let at = 0;
  for (const entry of entries) {
    at += entry.name.copy(joined, at);
    joined[at++] = 0;
  }
  const digest = createHash('sha1').update(joined).digest('hex');
  const gitlinks = entries.filter((entry) => entry.isGitlink).map((entry) => entry.name.toString('utf8'));
  if (entries.length === 0) return { paths: [], digest, gitlinks };
  const all = joined.toString('utf8', 0, length - 1).split('\0');
  // A path's stages are next to each other: kept once.
  const paths = all.filter((item, index) => index === 0 || all[index - 1] !== item);
  return { paths, digest, gitlinks };
}
