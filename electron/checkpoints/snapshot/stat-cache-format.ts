import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { endianness } from 'node:os';
import type { SkipReason } from '../checkpoint-types';
import { fileModes, type FileMode } from '../../git-store';

/*
 * The stat cache's format as read: its header, its checks, its columns. Kept apart from the state
 * it is decoded into and saved from (stat-cache.ts), so that a walking worker, which only reads it,
 * loads none of that.
 */

/** The stat cache's first line: its format. */
export const statCacheMagic = 'vigil-stat-cache 2';
/** The SHA-1 of everything before it ends the file. */
export const statCacheChecksumBytes = 20;
/** Separates names: the one character no file system allows in a name. */
export const statCacheSeparator = '\0';

/** Modes and skip reasons are stored as their index in these lists (append only). */
export const modes: readonly FileMode[] = [fileModes.file, fileModes.executable, fileModes.symlink];
/** See `modes`. */
export const reasons: readonly SkipReason[] = ['excluded', 'vcs', 'oversize', 'special', 'unreadable', 'bad-name'];

/** What the stat cache file says about itself, and how long each section of its body is. */
export interface StatCacheHeader {
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

/** The stat cache's two text lines (format, then header), its keys always in this order. */
export function statCacheHeaderText(header: StatCacheHeader): string {
  const { dir, head, stampNs, endian, folders, files, shapeBytes, namesBytes, oidBytes } = header;
  const ordered = { dir, head, stampNs, endian, folders, files, shapeBytes, namesBytes, oidBytes };
  return `${statCacheMagic}\n${JSON.stringify(ordered)}\n`;
}

/** Which file a stat cache was read from, as it was then: a save patches that file in place only if it is still just so. */
export interface StatCacheIdentity {
  readonly file: string;
  readonly ino: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
}

/** A stat cache read from disk and checked (checksum, format, directory), its state not decoded yet. */
export interface CheckedStatCache {
  readonly content: Buffer;
  /** The checkpoint the saved state equals. */
  readonly head: string | undefined;
  /** How many files it records. */
  readonly files: number;
  /** The file it was read from (absent for content made in memory). */
  readonly identity?: StatCacheIdentity;
}

/**
 * Reads and checks `dir`'s stat cache without decoding it, so that the workers can walk against
 * its bytes while `decodeStatCache` builds the state. Undefined when missing or damaged.
 */
export async function readCheckedStatCache(file: string, dir: string): Promise<CheckedStatCache | undefined> {
  let content: Buffer;
  let identity: StatCacheIdentity;
  try {
    const handle = await open(file, 'r');
    try {
      const stats = await handle.stat({ bigint: true });
      identity = { file, ino: stats.ino, size: stats.size, mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs };
      content = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  try {
    const checked = readStatCacheHeader(content, dir);
    return checked === undefined
      ? undefined
      : { content, head: checked.header.head, files: checked.header.files, identity };
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
export function readStatCacheHeader(
  content: Buffer,
  dir: string | undefined,
): { readonly header: StatCacheHeader; readonly bodyStart: number } | undefined {
  const textEnd = headerEnd(content);
  const bodyEnd = content.length - statCacheChecksumBytes;
  if (textEnd < 0 || bodyEnd <= textEnd) return undefined;
  const [firstLine, headerLine] = content.toString('utf8', 0, textEnd).split('\n');
  if (firstLine !== statCacheMagic) return undefined;
  const header = JSON.parse(headerLine ?? '') as Partial<StatCacheHeader>;
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
  return { header: header as StatCacheHeader, bodyStart };
}

/** The columns of a stat cache's body, decoded in bulk (the blob and tree ids left as bytes). */
export interface StatCacheColumns extends Omit<StatCacheText, 'namesText'> {
  readonly names: readonly string[];
}

/** The columns of a stat cache's body with its names left as one text, NUL-separated: what a walking worker reads. */
export interface StatCacheText {
  readonly folders: number;
  readonly files: number;
  readonly head: string | undefined;
  readonly stampNs: bigint;
  readonly shape: Uint32Array;
  /** Every name, in order, each followed by a NUL but the last. */
  readonly namesText: string;
  /** The blob and tree ids, 20 bytes each. */
  readonly oids: Buffer;
  readonly sizes: Float64Array;
  readonly times: BigInt64Array;
  readonly inodes: BigUint64Array;
}

/**
 * The columns of a stat cache of `dir` (checksum checked), or, without `dir`, of content already
 * checked by whoever passes it on (a walk's worker), its names not split. Undefined when it is not this format.
 */
export function statCacheText(content: Buffer, dir: string | undefined): StatCacheText | undefined {
  const checked = readStatCacheHeader(content, dir);
  if (checked === undefined) return undefined;
  const { header } = checked;
  let offset = checked.bodyStart;
  const shape = new Uint32Array(aligned(content, offset, header.shapeBytes));
  offset += header.shapeBytes;
  const namesText = content.toString('utf8', offset, offset + header.namesBytes);
  offset += header.namesBytes;
  const oids = content.subarray(offset, offset + header.oidBytes);
  offset += header.oidBytes;
  return {
    folders: header.folders,
    files: header.files,
    head: header.head,
    stampNs: BigInt(header.stampNs),
    shape,
    namesText,
    oids,
    sizes: new Float64Array(aligned(content, offset, header.files * 8)),
    times: new BigInt64Array(aligned(content, offset + header.files * 8, header.files * 16)),
    inodes: new BigUint64Array(aligned(content, offset + header.files * 24, header.files * 8)),
  };
}

/** `statCacheText` with every name split out. */
export function statCacheColumns(content: Buffer, dir: string | undefined): StatCacheColumns | undefined {
  const text = statCacheText(content, dir);
  if (text === undefined) return undefined;
  const { namesText, ...columns } = text;
  return { ...columns, names: namesText.split(statCacheSeparator) };
}

/** The modes and skip reasons a stat cache stores as indexes. */
export const statCacheCodes = { modes, reasons } as const;
