import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { endianness } from 'node:os';
import type { DirState } from './dir-state';
import { SavedFolder, type SavedColumns } from './saved-folder';
import {
  modes,
  readStatCacheHeader,
  reasons,
  statCacheChecksumBytes,
  statCacheHeaderText,
  type StatCacheIdentity,
} from './stat-cache-format';

/** The stat cache a state was loaded from: its bytes (as read, or as last patched) and the columns its saved folders read. */
export interface SavedSource {
  readonly identity: StatCacheIdentity;
  readonly content: Buffer;
  readonly columns: SavedColumns;
}

/** Past this many separate byte ranges to write, the whole file is written anew instead (one big write beats many small ones). */
const maxRanges = 256;
/** Ranges closer than this are written as one (the bytes between are the file's own). */
const mergeGap = 4_096;

/** The bytes of a patched stat cache and the ranges of it that differ from the file. */
interface Patch {
  readonly content: Buffer;
  readonly ranges: ReadonlyArray<readonly [number, number]>;
}

/** Byte offsets of a stat cache's columns. */
interface Layout {
  readonly shapeAt: number;
  readonly oidsAt: number;
  readonly sizesAt: number;
  readonly timesAt: number;
  readonly inodesAt: number;
}

/** Writes a changed folder's files into the columns, in place; false when its files are not the saved ones by name and order. */
function writeFiles(
  node: SavedFolder,
  view: DataView,
  content: Buffer,
  at: Layout,
  ranges: [number, number][],
): boolean {
  const { names } = node.columns;
  const { nameStart, shapeStart, fileStart, oidStart, fileCount } = node.span;
  const isLittle = endianness() === 'LE';
  let index = 0;
  for (const [name, record] of node.files) {
    const code = modes.indexOf(record.mode);
    if (index >= fileCount || names[nameStart + index] !== name || code < 0) return false;
    view.setUint32(at.shapeAt + (shapeStart + index) * 4, code, isLittle);
    content.write(record.oid, at.oidsAt + oidStart + index * 20, 20, 'hex');
    const file = fileStart + index;
    view.setFloat64(at.sizesAt + file * 8, record.size, isLittle);
    view.setBigInt64(at.timesAt + file * 16, record.mtimeNs, isLittle);
    view.setBigInt64(at.timesAt + file * 16 + 8, record.ctimeNs, isLittle);
    view.setBigUint64(at.inodesAt + file * 8, record.ino, isLittle);
    index += 1;
  }
  if (index !== fileCount) return false;
  ranges.push(
    [at.shapeAt + shapeStart * 4, at.shapeAt + (shapeStart + fileCount) * 4],
    [at.oidsAt + oidStart, at.oidsAt + oidStart + fileCount * 20],
    [at.sizesAt + fileStart * 8, at.sizesAt + (fileStart + fileCount) * 8],
    [at.timesAt + fileStart * 16, at.timesAt + (fileStart + fileCount) * 16],
    [at.inodesAt + fileStart * 8, at.inodesAt + (fileStart + fileCount) * 8],
  );
  return true;
}

/** Whether a folder's decoded skips are still the saved ones, by name, order and reason. */
function isSameSkips(node: SavedFolder): boolean {
  const { names, shape } = node.columns;
  const { nameStart, shapeStart, fileCount, skipCount } = node.span;
  if (node.skipped.size !== skipCount) return false;
  let index = fileCount;
  for (const [name, reason] of node.skipped) {
    if (names[nameStart + index] !== name || reasons[shape[shapeStart + index] ?? -1] !== reason) return false;
    index += 1;
  }
  return true;
}

/** Sorted, with ranges that touch or nearly touch joined. */
function merged(ranges: [number, number][]): [number, number][] {
  ranges.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const range of ranges) {
    const last = out[out.length - 1];
    if (last !== undefined && range[0] <= last[1] + mergeGap) last[1] = Math.max(last[1], range[1]);
    else out.push([range[0], range[1]]);
  }
  return out;
}

/**
 * The patch that makes the stat cache `source` hold `state`, when the state has the very folders,
 * names and skips it was loaded with, in the same order (a change of content, not of shape): only
 * the changed folders' records, the tree ids that moved, the header and the checksum differ.
 * Undefined otherwise: the cache is then written anew.
 */
export function planPatch(source: SavedSource, dir: string, state: DirState): Patch | undefined {
  const checked = readStatCacheHeader(source.content, undefined);
  if (checked === undefined || checked.header.dir !== dir) return undefined;
  const { header, bodyStart } = checked;
  const headerText = statCacheHeaderText({ ...header, head: state.head, stampNs: state.stampNs.toString() });
  if (Buffer.byteLength(headerText) !== bodyStart) return undefined;
  const content = Buffer.from(source.content);
  const ranges: [number, number][] = [[0, content.write(headerText, 0)]];
  const oidsAt = bodyStart + header.shapeBytes + header.namesBytes;
  const sizesAt = oidsAt + header.oidBytes;
  const at: Layout = {
    shapeAt: bodyStart,
    oidsAt,
    sizesAt,
    timesAt: sizesAt + header.files * 8,
    inodesAt: sizesAt + header.files * 24,
  };
  const view = new DataView(content.buffer, content.byteOffset, content.length);
  let [folders, nameStart] = [0, 1];
  for (const [rel, node] of state.nodes()) {
    if (!(node instanceof SavedFolder) || node.columns !== source.columns) return undefined;
    const { span } = node;
    // The loaded folders, each once and in their saved order, with their tree id saved (so it has a place).
    if (span.nameStart !== nameStart || source.columns.names[nameStart - 1] !== rel) return undefined;
    if (node.tree === undefined || source.columns.shape[span.shapeStart - 3] !== 1) return undefined;
    folders += 1;
    nameStart = span.nameStart + span.fileCount + span.skipCount + 1;
    const treeAt = oidsAt + span.oidStart - 20;
    if (source.content.toString('hex', treeAt, treeAt + 20) !== node.tree) {
      content.write(node.tree, treeAt, 20, 'hex');
      ranges.push([treeAt, treeAt + 20]);
    }
    if (!node.isSkipsSaved && !isSameSkips(node)) return undefined;
    if (!node.isFilesSaved && !writeFiles(node, view, content, at, ranges)) return undefined;
  }
  if (folders !== header.folders) return undefined;
  const bodyEnd = content.length - statCacheChecksumBytes;
  createHash('sha1').update(content.subarray(0, bodyEnd)).digest().copy(content, bodyEnd);
  ranges.push([bodyEnd, content.length]);
  const joined = merged(ranges);
  return joined.length > maxRanges ? undefined : { content, ranges: joined };
}

/** Whether the file is still the one that was read (same inode, size and times): else someone rewrote it. */
function isSameFile(
  stats: { ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint },
  identity: StatCacheIdentity,
) {
  return (
    stats.ino === identity.ino &&
    stats.size === identity.size &&
    stats.mtimeNs === identity.mtimeNs &&
    stats.ctimeNs === identity.ctimeNs
  );
}

/**
 * Writes the patch into the stat cache file in place, when that file is still the one the state
 * was loaded from; resolves with the file's new identity, or undefined when it was not (nothing
 * written). A reader that meets a file half patched (a crash, a lockless reader) finds its checksum
 * wrong and treats it as missing, as it does any damaged cache: slower, never wrong.
 */
export async function writePatch(identity: StatCacheIdentity, patch: Patch): Promise<StatCacheIdentity | undefined> {
  const handle = await open(identity.file, 'r+').catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    if (!isSameFile(await handle.stat({ bigint: true }), identity)) return undefined;
    for (const [start, end] of patch.ranges) {
      let written = 0;
      while (start + written < end) {
        const { bytesWritten } = await handle.write(
          patch.content,
          start + written,
          end - start - written,
          start + written,
        );
        if (bytesWritten === 0) throw new Error('the stat cache could not be written');
        written += bytesWritten;
      }
    }
    const after = await handle.stat({ bigint: true });
    return { file: identity.file, ino: after.ino, size: after.size, mtimeNs: after.mtimeNs, ctimeNs: after.ctimeNs };
  } finally {
    await handle.close();
  }
}
