import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { SkipReason } from './checkpoint-types';
import { DirState, type FileRecord } from './dir-state';
import { writeFileDurably } from './durable-file';
import { fileModes, type FileMode } from './git-objects';

const magic = 'vigil-stat-cache 2';
/** Modes and skip reasons are stored as their index in these lists (append only). */
const modes: readonly FileMode[] = [fileModes.file, fileModes.executable, fileModes.symlink];
const reasons: readonly SkipReason[] = ['excluded', 'vcs', 'oversize', 'special', 'unreadable', 'bad-name'];
const folderTag = 0x44;
const endTag = 0x45;
const checksumBytes = 20;
/** A file record after its name: mode (1), blob id (20), size (8), mtime, ctime and inode (8 each). */
const fileBytes = 53;

/** What the stat cache file says about itself. */
interface CacheHeader {
  readonly dir: string;
  readonly head: string | undefined;
  readonly stampNs: string;
}

/** Appends binary fields to a list of buffers, a chunk at a time. */
class ChunkWriter {
  readonly chunks: Buffer[] = [];
  #buffer = Buffer.allocUnsafe(chunkBytes);
  #offset = 0;

  #room(bytes: number): void {
    if (this.#offset + bytes <= this.#buffer.length) return;
    this.chunks.push(this.#buffer.subarray(0, this.#offset));
    this.#buffer = Buffer.allocUnsafe(Math.max(chunkBytes, bytes));
    this.#offset = 0;
  }

  byte(value: number): void {
    this.#room(1);
    this.#offset = this.#buffer.writeUInt8(value, this.#offset);
  }

  u32(value: number): void {
    this.#room(4);
    this.#offset = this.#buffer.writeUInt32LE(value, this.#offset);
  }

  text(value: string): void {
    this.#room(4 + value.length * 3);
    const length = this.#buffer.write(value, this.#offset + 4, 'utf8');
    this.#buffer.writeUInt32LE(length, this.#offset);
    this.#offset += 4 + length;
  }

  oid(value: string): void {
    this.#room(20);
    this.#offset += this.#buffer.write(value, this.#offset, 20, 'hex');
  }

  file(name: string, record: FileRecord): void {
    this.text(name);
    this.#room(fileBytes);
    this.#offset = this.#buffer.writeUInt8(modes.indexOf(record.mode), this.#offset);
    this.#offset += this.#buffer.write(record.oid, this.#offset, 20, 'hex');
    this.#offset = this.#buffer.writeDoubleLE(record.size, this.#offset);
    this.#offset = this.#buffer.writeBigInt64LE(record.mtimeNs, this.#offset);
    this.#offset = this.#buffer.writeBigInt64LE(record.ctimeNs, this.#offset);
    this.#offset = this.#buffer.writeBigUInt64LE(record.ino, this.#offset);
  }

  finish(): Buffer[] {
    this.chunks.push(this.#buffer.subarray(0, this.#offset));
    return this.chunks;
  }
}

/** Bytes per chunk of an encoded cache. */
const chunkBytes = 1 << 20;
/** How many records are encoded or decoded between yields to the event loop. */
const recordsPerSlice = 5_000;

/**
 * Saves a directory's state, as git keeps its index: a text header (magic line, JSON line), then
 * binary records folder by folder (path, tree id, then each file's name, mode, blob id, size,
 * mtime, ctime and inode, then each skipped name and reason), then a SHA-1 of all that. Encoded
 * in slices that yield to the event loop; the old file is replaced in one rename.
 */
export async function saveStatCache(file: string, dir: string, state: DirState): Promise<void> {
  const header: CacheHeader = { dir, head: state.head, stampNs: state.stampNs.toString() };
  const writer = new ChunkWriter();
  let sinceYield = 0;
  for (const [rel, node] of state.nodes()) {
    writer.byte(folderTag);
    writer.text(rel);
    writer.byte(node.tree === undefined ? 0 : 1);
    if (node.tree !== undefined) writer.oid(node.tree);
    writer.u32(node.files.size);
    writer.u32(node.skipped.size);
    for (const [name, record] of node.files) writer.file(name, record);
    for (const [name, reason] of node.skipped) {
      writer.text(name);
      writer.byte(reasons.indexOf(reason));
    }
    sinceYield += node.files.size + 1;
    if (sinceYield >= recordsPerSlice) {
      sinceYield = 0;
      await yieldToLoop();
    }
  }
  writer.byte(endTag);
  const content = Buffer.concat([Buffer.from(`${magic}\n${JSON.stringify(header)}\n`), ...writer.finish()]);
  const checksum = createHash('sha1').update(content).digest();
  await writeFileDurably(file, Buffer.concat([content, checksum]), { sync: false });
}

/**
 * Loads a saved state; undefined when there is none, it belongs to another directory, or it is
 * damaged in any way (the caller then walks the directory from scratch: slower, never wrong).
 */
export async function loadStatCache(file: string, dir: string): Promise<DirState | undefined> {
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch {
    return undefined;
  }
  try {
    return await parse(content, dir);
  } catch {
    return undefined;
  }
}

/** Reads the binary body field by field; any read past the end throws (a damaged cache). */
class ChunkReader {
  offset: number;

  constructor(
    readonly buffer: Buffer,
    start: number,
    readonly end: number,
  ) {
    this.offset = start;
  }

  #take(bytes: number): number {
    const at = this.offset;
    if (at + bytes > this.end) throw new Error('truncated');
    this.offset = at + bytes;
    return at;
  }

  byte(): number {
    return this.buffer[this.#take(1)] as number;
  }

  u32(): number {
    return this.buffer.readUInt32LE(this.#take(4));
  }

  text(): string {
    const length = this.u32();
    const at = this.#take(length);
    return this.buffer.toString('utf8', at, at + length);
  }

  oid(): string {
    const at = this.#take(20);
    return this.buffer.toString('hex', at, at + 20);
  }

  file(): FileRecord {
    const at = this.#take(fileBytes);
    const { buffer } = this;
    const mode = modes[buffer[at] as number];
    if (mode === undefined) throw new Error('bad mode');
    return {
      mode,
      oid: buffer.toString('hex', at + 1, at + 21),
      size: buffer.readDoubleLE(at + 21),
      mtimeNs: buffer.readBigInt64LE(at + 29),
      ctimeNs: buffer.readBigInt64LE(at + 37),
      ino: buffer.readBigUInt64LE(at + 45),
    };
  }
}

/** Where the header's two text lines end, or -1. */
function headerEnd(content: Buffer): number {
  const first = content.indexOf(0x0a);
  return first < 0 ? -1 : content.indexOf(0x0a, first + 1);
}

async function parse(content: Buffer, dir: string): Promise<DirState | undefined> {
  const textEnd = headerEnd(content);
  const bodyEnd = content.length - checksumBytes;
  if (textEnd < 0 || bodyEnd <= textEnd) return undefined;
  const [firstLine, headerLine] = content.toString('utf8', 0, textEnd).split('\n');
  if (firstLine !== magic) return undefined;
  const header = JSON.parse(headerLine ?? '') as Partial<CacheHeader>;
  if (header.dir !== dir || typeof header.stampNs !== 'string') return undefined;
  if (!createHash('sha1').update(content.subarray(0, bodyEnd)).digest().equals(content.subarray(bodyEnd))) return undefined;
  const reader = new ChunkReader(content, textEnd + 1, bodyEnd);
  const state = new DirState();
  const trees: Array<[string, string]> = [];
  let isEveryTreeKnown = true;
  let sinceYield = 0;
  for (let tag = reader.byte(); tag !== endTag; tag = reader.byte()) {
    if (tag !== folderTag) return undefined;
    const rel = reader.text();
    const tree = reader.byte() === 1 ? reader.oid() : undefined;
    if (tree === undefined) isEveryTreeKnown = false;
    else trees.push([rel, tree]);
    const fileCount = reader.u32();
    const skipCount = reader.u32();
    // The folder's entries go straight into its node: they were saved from a consistent state (the checksum holds).
    const node = state.ensureFolder(rel);
    for (let index = 0; index < fileCount; index += 1) node.files.set(reader.text(), reader.file());
    for (let index = 0; index < skipCount; index += 1) {
      const name = reader.text();
      const reason = reasons[reader.byte()];
      if (reason === undefined) return undefined;
      node.skipped.set(name, reason);
    }
    sinceYield += fileCount + 1;
    if (sinceYield >= recordsPerSlice) {
      sinceYield = 0;
      await yieldToLoop();
    }
  }
  if (reader.offset !== bodyEnd) return undefined;
  // Tree ids are trusted only when recorded for every folder (they were saved right after a build).
  if (isEveryTreeKnown) {
    for (const [rel, tree] of trees) {
      const node = state.node(rel);
      if (node !== undefined) node.tree = tree;
    }
  }
  state.head = header.head;
  state.stampNs = BigInt(header.stampNs);
  return state;
}
