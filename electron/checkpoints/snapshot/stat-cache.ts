import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { SkipReason } from '../checkpoint-types';
import { DirState } from './dir-state';
import { writeFileDurably } from '../store/durable-file';
import { fileModes, type FileMode } from '../store/git-objects';

const magic = 'vigil-stat-cache 2';
/** Modes and skip reasons are stored as their index in these lists (append only). */
const modes: readonly FileMode[] = [fileModes.file, fileModes.executable, fileModes.symlink];
const reasons: readonly SkipReason[] = ['excluded', 'vcs', 'oversize', 'special', 'unreadable', 'bad-name'];
const checksumBytes = 20;
/** Separates names: the one character no file system allows in a name. */
const separator = '\0';
/** How many files are encoded or decoded between yields to the event loop. */
const filesPerSlice = 10_000;

/** What the stat cache file says about itself, and how long each section of its body is. */
interface CacheHeader {
  readonly dir: string;
  readonly head: string | undefined;
  readonly stampNs: string;
  /** The body's numbers are in this byte order (the machine's own). */
  readonly endian: string;
  readonly folders: number;
  readonly files: number;
  readonly shapeBytes: number;
  readonly namesBytes: number;
  readonly oidBytes: number;
}

/**
 * Saves a directory's state, as git keeps its index: a magic line and a JSON header line, then a
 * binary body in columns — the shape (per folder: whether its tree id is known, its file and skip
 * counts, each file's mode and each skip's reason), every name (folder paths, file and skipped
 * names, NUL-separated), every blob and tree id as bytes, then each file's size, mtime, ctime and
 * inode as 64-bit numbers — and a SHA-1 of all that. Columns are encoded and decoded in bulk, not
 * field by field. The old file is replaced in one rename.
 */
export async function saveStatCache(file: string, dir: string, state: DirState): Promise<void> {
  // Every column is sized first and filled in place: no per-file arrays to join or copy.
  let [folders, files, entries, trees] = [0, 0, 0, 0];
  for (const [, node] of state.nodes()) {
    folders += 1;
    files += node.files.size;
    entries += node.files.size + node.skipped.size;
    if (node.tree !== undefined) trees += 1;
  }
  const shape = new Uint32Array(folders * 3 + entries);
  const names = new Array<string>(folders + entries);
  const oidBuffer = Buffer.alloc((trees + files) * 20);
  const sizes = new Float64Array(files);
  const times = new BigInt64Array(files * 2);
  const inodes = new BigUint64Array(files);
  let [at, name, oidAt, index, sinceYield] = [0, 0, 0, 0, 0];
  for (const [rel, node] of state.nodes()) {
    names[name++] = rel;
    shape[at++] = node.tree === undefined ? 0 : 1;
    shape[at++] = node.files.size;
    shape[at++] = node.skipped.size;
    if (node.tree !== undefined) oidAt += oidBuffer.write(node.tree, oidAt, 'hex');
    for (const [fileName, record] of node.files) {
      names[name++] = fileName;
      oidAt += oidBuffer.write(record.oid, oidAt, 'hex');
      shape[at++] = modes.indexOf(record.mode);
      sizes[index] = record.size;
      times[index * 2] = record.mtimeNs;
      times[index * 2 + 1] = record.ctimeNs;
      inodes[index] = record.ino;
      index += 1;
    }
    for (const [skippedName, reason] of node.skipped) {
      names[name++] = skippedName;
      shape[at++] = reasons.indexOf(reason);
    }
    sinceYield += node.files.size;
    if (sinceYield >= filesPerSlice) {
      sinceYield = 0;
      await yieldToLoop();
    }
  }
  // The state is not changed while it is saved (the store lock is held); a cache that does not add up is never written.
  if (at !== shape.length || name !== names.length || oidAt !== oidBuffer.length || index !== files)
    throw new Error('the directory state changed while its stat cache was being saved');
  const shapeBuffer = Buffer.from(shape.buffer);
  const namesBuffer = Buffer.from(names.join(separator), 'utf8');
  const header: CacheHeader = {
    dir,
    head: state.head,
    stampNs: state.stampNs.toString(),
    endian: endianness(),
    folders,
    files,
    shapeBytes: shapeBuffer.length,
    namesBytes: namesBuffer.length,
    oidBytes: oidBuffer.length,
  };
  const content = Buffer.concat([
    Buffer.from(`${magic}\n${JSON.stringify(header)}\n`),
    shapeBuffer,
    namesBuffer,
    oidBuffer,
    Buffer.from(sizes.buffer),
    Buffer.from(times.buffer),
    Buffer.from(inodes.buffer),
  ]);
  const checksum = createHash('sha1').update(content).digest();
  await writeFileDurably(file, Buffer.concat([content, checksum]), { sync: false });
}

/**
 * Loads a saved state; undefined when there is none, it belongs to another directory, or it is
 * damaged in any way (the caller then walks the directory from scratch: slower, never wrong).
 */
export async function loadStatCache(file: string, dir: string): Promise<DirState | undefined> {
  const cache = await readCheckedStatCache(file, dir);
  return cache === undefined ? undefined : decodeStatCache(cache);
}

/** A stat cache read from disk and checked (checksum, format, directory), its state not decoded yet. */
export interface CheckedStatCache {
  readonly content: Buffer;
  /** The checkpoint the saved state equals. */
  readonly head: string | undefined;
  /** How many files it records. */
  readonly files: number;
}

/**
 * Reads and checks `dir`'s stat cache without decoding it, so that the workers can walk against
 * its bytes while `decodeStatCache` builds the state. Undefined when missing or damaged.
 */
export async function readCheckedStatCache(file: string, dir: string): Promise<CheckedStatCache | undefined> {
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch {
    return undefined;
  }
  try {
    const checked = readHeader(content, dir);
    return checked === undefined ? undefined : { content, head: checked.header.head, files: checked.header.files };
  } catch {
    return undefined;
  }
}

/** The state a checked stat cache holds; undefined when its body does not add up. */
export async function decodeStatCache(cache: CheckedStatCache): Promise<DirState | undefined> {
  try {
    // Checked when read (checksum and directory): not hashed a second time.
    return await parse(cache.content, undefined);
  } catch {
    return undefined;
  }
}

/** Where the header's two text lines end, or -1. */
function headerEnd(content: Buffer): number {
  const first = content.indexOf(0x0a);
  return first < 0 ? -1 : content.indexOf(0x0a, first + 1);
}

/** A copy of `length` bytes at `offset` in a fresh (so aligned) ArrayBuffer. */
function aligned(content: Buffer, offset: number, length: number): ArrayBuffer {
  if (offset + length > content.length) throw new Error('truncated');
  return new Uint8Array(content.buffer, content.byteOffset + offset, length).slice().buffer;
}

/** The checked header, or undefined when the cache is not this directory's or not this format. */
function readHeader(
  content: Buffer,
  dir: string | undefined,
): { readonly header: CacheHeader; readonly bodyStart: number } | undefined {
  const textEnd = headerEnd(content);
  const bodyEnd = content.length - checksumBytes;
  if (textEnd < 0 || bodyEnd <= textEnd) return undefined;
  const [firstLine, headerLine] = content.toString('utf8', 0, textEnd).split('\n');
  if (firstLine !== magic) return undefined;
  const header = JSON.parse(headerLine ?? '') as Partial<CacheHeader>;
  if ((dir !== undefined && header.dir !== dir) || typeof header.stampNs !== 'string' || header.endian !== endianness())
    return undefined;
  const { folders, files, shapeBytes, namesBytes, oidBytes } = header;
  if (
    ![folders, files, shapeBytes, namesBytes, oidBytes].every(
      (value) => Number.isSafeInteger(value) && (value as number) >= 0,
    )
  )
    return undefined;
  const bodyStart = textEnd + 1;
  if (bodyStart + (shapeBytes ?? 0) + (namesBytes ?? 0) + (oidBytes ?? 0) + (files ?? 0) * 32 !== bodyEnd)
    return undefined;
  // Without a directory to check, the caller has checked this very content already (it was loaded with it).
  if (
    dir !== undefined &&
    !createHash('sha1').update(content.subarray(0, bodyEnd)).digest().equals(content.subarray(bodyEnd))
  )
    return undefined;
  return { header: header as CacheHeader, bodyStart };
}

/** The columns of a stat cache's body, decoded in bulk (the blob and tree ids left as hex). */
export interface StatCacheColumns {
  readonly folders: number;
  readonly files: number;
  readonly head: string | undefined;
  readonly stampNs: bigint;
  readonly shape: Uint32Array;
  readonly names: readonly string[];
  readonly oids: string;
  readonly sizes: Float64Array;
  readonly times: BigInt64Array;
  readonly inodes: BigUint64Array;
}

/**
 * The columns of a stat cache of `dir` (checksum checked), or, without `dir`, of content already
 * checked by whoever passes it on (a walk's worker). Undefined when it is not this format.
 */
export function statCacheColumns(content: Buffer, dir: string | undefined): StatCacheColumns | undefined {
  const checked = readHeader(content, dir);
  if (checked === undefined) return undefined;
  const { header } = checked;
  let offset = checked.bodyStart;
  const shape = new Uint32Array(aligned(content, offset, header.shapeBytes));
  offset += header.shapeBytes;
  const names = content.toString('utf8', offset, offset + header.namesBytes).split(separator);
  offset += header.namesBytes;
  const oids = content.toString('hex', offset, offset + header.oidBytes);
  offset += header.oidBytes;
  return {
    folders: header.folders,
    files: header.files,
    head: header.head,
    stampNs: BigInt(header.stampNs),
    shape,
    names,
    oids,
    sizes: new Float64Array(aligned(content, offset, header.files * 8)),
    times: new BigInt64Array(aligned(content, offset + header.files * 8, header.files * 16)),
    inodes: new BigUint64Array(aligned(content, offset + header.files * 24, header.files * 8)),
  };
}

/** The modes and skip reasons a stat cache stores as indexes. */
export const statCacheCodes = { modes, reasons } as const;

/** Decodes a stat cache of `dir` (or, without `dir`, one checked already) into a state. */
async function parse(content: Buffer, dir: string | undefined): Promise<DirState | undefined> {
  const columns = statCacheColumns(content, dir);
  if (columns === undefined) return undefined;
  const { shape, names, oids, sizes, times, inodes } = columns;
  const header = columns;
  const state = new DirState();
  const trees: Array<[string, string]> = [];
  let isEveryTreeKnown = true;
  let [at, name, oid, fileIndex, sinceYield] = [0, 0, 0, 0, 0];
  const nextOid = (): string => {
    if (oid + 40 > oids.length) throw new Error('truncated');
    oid += 40;
    return oids.slice(oid - 40, oid);
  };
  for (let folder = 0; folder < header.folders; folder += 1) {
    const rel = names[name++];
    const [hasTree, fileCount = 0, skipCount = 0] = shape.subarray(at, at + 3);
    at += 3;
    if (rel === undefined) return undefined;
    if (hasTree === 1) trees.push([rel, nextOid()]);
    else isEveryTreeKnown = false;
    // The folder's entries go straight into its node: they were saved from a consistent state (the checksum holds).
    const node = state.ensureFolder(rel);
    for (let index = 0; index < fileCount; index += 1) {
      const mode = modes[shape[at++] ?? -1];
      const fileName = names[name++];
      if (mode === undefined || fileName === undefined || fileIndex >= header.files) return undefined;
      const record = {
        mode,
        oid: nextOid(),
        size: sizes[fileIndex] ?? 0,
        mtimeNs: times[fileIndex * 2] ?? 0n,
        ctimeNs: times[fileIndex * 2 + 1] ?? 0n,
        ino: inodes[fileIndex] ?? 0n,
      };
      fileIndex += 1;
      node.files.set(fileName, record);
    }
    for (let index = 0; index < skipCount; index += 1) {
      const reason = reasons[shape[at++] ?? -1];
      const skippedName = names[name++];
      if (reason === undefined || skippedName === undefined) return undefined;
      node.skipped.set(skippedName, reason);
    }
    sinceYield += fileCount;
    if (sinceYield >= filesPerSlice) {
      sinceYield = 0;
      await yieldToLoop();
    }
  }
  if (at !== shape.length || name !== names.length || oid !== oids.length || fileIndex !== header.files)
    return undefined;
  // Tree ids are trusted only when recorded for every folder (they were saved right after a build).
  if (isEveryTreeKnown) {
    for (const [rel, tree] of trees) {
      const node = state.node(rel);
      if (node !== undefined) node.tree = tree;
    }
  }
  state.head = header.head;
  state.stampNs = header.stampNs;
  return state;
}
