import { createHash } from 'node:crypto';
import { endianness } from 'node:os';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { DirState } from './dir-state';
import { SavedFolder, type SavedColumns, type SavedSpan } from './saved-folder';
import { encodeBody, type EncodedBody } from './stat-cache-body';
import {
  modes,
  readCheckedStatCache,
  reasons,
  statCacheColumns,
  statCacheHeaderText,
  statCacheSeparator,
  type CheckedStatCache,
  type StatCacheHeader,
  type StatCacheIdentity,
} from './stat-cache-format';
import { planPatch, writePatch } from './stat-cache-patch';
import { writeFileDurably } from '../../git-store';

/** How many files are encoded between yields to the event loop. */
const filesPerSlice = 10_000;

/**
 * Saves a directory's state, as git keeps its index: a magic line and a JSON header line, then a
 * binary body in columns — the shape (per folder: whether its tree id is known, its file and skip
 * counts, each file's mode and each skip's reason), every name (folder paths, file and skipped
 * names, NUL-separated), every blob and tree id as bytes, then each file's size, mtime, ctime and
 * inode as 64-bit numbers — and a SHA-1 of all that. Columns are encoded and decoded in bulk, not
 * field by field; a folder loaded from the cache and never decoded since is copied back as it was.
 * The old file is replaced in one rename, unless only records changed since the state was loaded
 * from it (a one-change checkpoint): then just those bytes are patched in place (`patchSaved`).
 * With `compact` (a resident core), the state's folders are then swapped for ones that read the
 * columns just written (see `DirState.compactFolder`).
 */
export async function saveStatCache(
  file: string,
  dir: string,
  state: DirState,
  options: {
    readonly compact?: boolean;
    /** Folders to leave as they are (they hold records a later snapshot compares by identity: `tracked.racy`'s). */
    readonly keepFolders?: ReadonlySet<string>;
  } = {},
): Promise<void> {
  if (options.compact !== true && (await patchSaved(file, dir, state))) return;
  const out: { body?: EncodedBody } = {};
  for (const _slice of encodeBody([...state.nodes()], filesPerSlice, out)) await yieldToLoop();
  if (out.body === undefined) throw new Error('the stat cache body was not encoded');
  const { columns, spans, folders, files } = out.body;
  const shapeBuffer = Buffer.from(columns.shape.buffer);
  const namesBuffer = Buffer.from(columns.names.join(statCacheSeparator), 'utf8');
  const header: StatCacheHeader = {
    dir,
    head: state.head,
    stampNs: state.stampNs.toString(),
    endian: endianness(),
    folders,
    files,
    shapeBytes: shapeBuffer.length,
    namesBytes: namesBuffer.length,
    oidBytes: columns.oids.length,
  };
  const parts = [
    Buffer.from(statCacheHeaderText(header)),
    shapeBuffer,
    namesBuffer,
    columns.oids,
    Buffer.from(columns.sizes.buffer),
    Buffer.from(columns.times.buffer),
    Buffer.from(columns.inodes.buffer),
  ];
  // Hashed and written part by part, checksum last (a 50,000-file cache is ~3 MB: not copied into one buffer).
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part);
  await writeFileDurably(file, [...parts, hash.digest()], { sync: false });
  // The file is not the one the state's saved folders were read from any more: the next save writes it anew.
  if (state.savedSource?.identity.file === file) state.savedSource = undefined;
  if (options.compact === true) compactState(state, { ...columns, modes, reasons }, spans, options.keepFolders);
}

/**
 * A one-change checkpoint of a big tree changes a few records of a cache of megabytes: when the
 * state still has the folders, names and skips of the cache it was loaded from (and that file is
 * unchanged since), only the bytes that differ are written, in place, checksum last. False when
 * it cannot be patched (nothing written then).
 */
async function patchSaved(file: string, dir: string, state: DirState): Promise<boolean> {
  const source = state.savedSource;
  if (source?.identity.file !== file) return false;
  const patch = planPatch(source, dir, state);
  if (patch === undefined) return false;
  const identity = await writePatch(source.identity, patch);
  if (identity === undefined) return false;
  state.savedSource = { ...source, content: patch.content, identity };
  return true;
}

/** The state's folders (but `keep`) read from the columns just written from now on: they hold every entry. */
function compactState(
  state: DirState,
  saved: SavedColumns,
  spans: ReadonlyArray<readonly [string, SavedSpan]>,
  keep: ReadonlySet<string> | undefined,
): void {
  for (const [rel, span] of spans) if (keep?.has(rel) !== true) state.compactFolder(rel, new SavedFolder(saved, span));
}

/**
 * Loads a saved state; undefined when there is none, it belongs to another directory, or it is
 * damaged in any way (the caller then walks the directory from scratch: slower, never wrong).
 */
export async function loadStatCache(file: string, dir: string): Promise<DirState | undefined> {
  const cache = await readCheckedStatCache(file, dir);
  return cache === undefined ? undefined : decodeStatCache(cache);
}

/** The state a checked stat cache holds; undefined when its body does not add up. */
export function decodeStatCache(cache: CheckedStatCache): DirState | undefined {
  try {
    // Checked when read (checksum and directory): not hashed a second time.
    return parse(cache.content, undefined, cache.identity);
  } catch {
    return undefined;
  }
}

/**
 * Decodes a stat cache of `dir` (or, without `dir`, one checked already) into a state whose
 * folders decode their entries on first use; every count and code is checked here, at once.
 */
function parse(content: Buffer, dir: string | undefined, identity?: StatCacheIdentity): DirState | undefined {
  const header = statCacheColumns(content, dir);
  if (header === undefined) return undefined;
  const columns: SavedColumns = { ...header, modes, reasons };
  const { shape, names, oids } = columns;
  const state = new DirState();
  const trees: Array<[SavedFolder, string]> = [];
  let isEveryTreeKnown = true;
  let [at, name, oid, fileIndex] = [0, 0, 0, 0];
  for (let folder = 0; folder < header.folders; folder += 1) {
    const rel = names[name];
    const [hasTree = 0, fileCount = 0, skipCount = 0] = shape.subarray(at, at + 3);
    at += 3;
    let tree: string | undefined;
    if (hasTree === 1 && oid + 20 <= oids.length) {
      tree = oids.toString('hex', oid, oid + 20);
      oid += 20;
    } else isEveryTreeKnown = false;
    if (
      rel === undefined ||
      (hasTree === 1 && tree === undefined) ||
      at + fileCount + skipCount > shape.length ||
      name + 1 + fileCount + skipCount > names.length ||
      fileIndex + fileCount > header.files ||
      oid + fileCount * 20 > oids.length ||
      !areCodes(shape, at, fileCount, modes.length) ||
      !areCodes(shape, at + fileCount, skipCount, reasons.length)
    )
      return undefined;
    const node = new SavedFolder(columns, {
      nameStart: name + 1,
      shapeStart: at,
      fileStart: fileIndex,
      oidStart: oid,
      fileCount,
      skipCount,
    });
    // The folder's entries are read from the columns when first used: they were saved from a consistent state (the checksum holds).
    state.loadFolder(rel, node);
    if (tree !== undefined) trees.push([node, tree]);
    at += fileCount + skipCount;
    name += 1 + fileCount + skipCount;
    oid += fileCount * 20;
    fileIndex += fileCount;
  }
  if (at !== shape.length || name !== names.length || oid !== oids.length || fileIndex !== header.files)
    return undefined;
  // Tree ids are trusted only when recorded for every folder (they were saved right after a build).
  if (isEveryTreeKnown) for (const [node, tree] of trees) node.tree = tree;
  state.head = header.head;
  state.stampNs = header.stampNs;
  if (identity !== undefined) state.savedSource = { identity, content, columns };
  return state;
}

/** Whether the `count` codes from `start` of `shape` all stand for something (below `limit`). */
function areCodes(shape: Uint32Array, start: number, count: number, limit: number): boolean {
  for (let index = start; index < start + count; index += 1) if ((shape[index] ?? limit) >= limit) return false;
  return true;
}
