import { createHash, randomBytes } from 'node:crypto';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { syncDirectory } from '../files';
import type { ObjectType } from './git-objects';
import { deflateObject } from './object-zlib';
import { encodeEntryHeader } from './pack-file';
import { encodePackIndex, type PackIndexEntry } from './pack-index';

/**
 * Writes are copied into chunks of this size before they reach the file: one buffer, not the ~35,000
 * small parts (each a Buffer object) that 1 MiB of small compressed files makes, which would outlive
 * a worker's 4 MiB young generation and fill its old space with garbage.
 */
const flushBytes = 1 << 20;
/**
 * Up to this many bytes the pack is also kept in memory (as the chunks written), so its checksum
 * needs no second read; a bigger one is read back once at the end (from the page cache: ~1 ms a
 * MiB), which costs a first snapshot far less than holding its pack (each hashing worker holds one).
 */
const keepInMemoryBytes = 4 << 20;

/** A pack that was written and made visible. */
export interface WrittenPack {
  /** `pack-<sha>` (without extension). */
  readonly name: string;
  readonly count: number;
  readonly bytes: number;
}

/**
 * Writes objects straight into a new pack (whole objects, no deltas) plus its `.idx`: one file
 * for thousands of objects instead of one file each. Nothing is visible until `finish()`, which
 * fsyncs both files and renames them into place, pack first: a crash leaves only temp files,
 * which the store's repair removes.
 */
export class PackWriter {
  readonly #entries: PackIndexEntry[] = [];
  readonly #oids = new Set<string>();
  /** Full chunks not yet handed to the file. */
  readonly #sealed: Buffer[] = [];
  /** The chunk being filled, and how much of it is. */
  #chunk = Buffer.allocUnsafe(flushBytes);
  #used = 0;
  /** Bytes handed to the file so far (each chunk is written at its own position, so writes may overlap). */
  #handed = 0;
  #offset = 12;
  #kept: Buffer[] | undefined = [];

  private constructor(
    private readonly packDir: string,
    private readonly tempPath: string,
    private readonly handle: FileHandle,
    private readonly level: number,
  ) {}

  /** Starts a pack in `objects/pack` (a `tmp_pack_*` file until it is finished). */
  static async create(packDir: string, level = 1): Promise<PackWriter> {
    const tempPath = path.join(packDir, `tmp_pack_${randomBytes(8).toString('hex')}`);
    // Read and write: a pack past what is kept in memory is read back for its checksum.
    const handle = await open(tempPath, 'wx+', 0o444);
    const writer = new PackWriter(packDir, tempPath, handle, level);
    writer.#push(Buffer.alloc(12)); // the header, rewritten with the count at the end
    return writer;
  }

  /** How many objects were added. */
  get count(): number {
    return this.#entries.length;
  }

  /** Whether this pack already holds an object. */
  has(oid: string): boolean {
    return this.#oids.has(oid);
  }

  /** Adds an object (compressing it, at the pack's level unless told); an id already added is ignored. */
  async add(type: ObjectType, content: Uint8Array, oid: string, level = this.level): Promise<void> {
    if (this.#oids.has(oid)) return;
    this.#oids.add(oid);
    const compressed = await deflateObject(content, level);
    const header = encodeEntryHeader(type, content.length);
    await this.#addEntry(oid, [header, compressed]);
  }

  /** Adds an object already compressed by the caller (zlib of its content, at any level). */
  async addCompressed(type: ObjectType, size: number, compressed: Buffer, oid: string): Promise<void> {
    if (this.#oids.has(oid)) return;
    this.#oids.add(oid);
    await this.#addEntry(oid, [encodeEntryHeader(type, size), compressed]);
  }

  /** Adds an entry that is already encoded (header + compressed data of a whole object). */
  async addRaw(oid: string, bytes: Buffer): Promise<void> {
    if (this.#oids.has(oid)) return;
    this.#oids.add(oid);
    await this.#addEntry(oid, [bytes]);
  }

  /**
   * Finishes the pack and makes it visible; undefined (and nothing left behind) when it is empty. A failure (a full
   * disk, a file size limit) removes the temp files it wrote, as `abort` does, and is thrown.
   */
  async finish(): Promise<WrittenPack | undefined> {
    if (this.#entries.length === 0) {
      await this.abort();
      return undefined;
    }
    const tempIndex = path.join(this.packDir, `tmp_idx_${randomBytes(8).toString('hex')}`);
    try {
      return await this.#finish(tempIndex);
    } catch (error) {
      await this.abort();
      await unlink(tempIndex).catch(() => undefined);
      throw error;
    }
  }

  async #finish(tempIndex: string): Promise<WrittenPack> {
    const header = Buffer.alloc(12);
    header.write('PACK', 0, 'latin1');
    header.writeUInt32BE(2, 4);
    header.writeUInt32BE(this.#entries.length, 8);
    await this.#flush(true);
    await writeFully(this.handle, header, 0);
    const checksum = await this.#checksum(header);
    await writeFully(this.handle, checksum, this.#offset);
    await this.handle.sync();
    await this.handle.close();
    const name = `pack-${checksum.toString('hex')}`;
    const index = encodePackIndex(this.#entries, checksum);
    const indexHandle = await open(tempIndex, 'wx', 0o444);
    try {
      await indexHandle.writeFile(index);
      await indexHandle.sync();
    } finally {
      await indexHandle.close();
    }
    await rename(this.tempPath, path.join(this.packDir, `${name}.pack`));
    await rename(tempIndex, path.join(this.packDir, `${name}.idx`));
    await syncDirectory(this.packDir);
    return { name, count: this.#entries.length, bytes: this.#offset + 20 };
  }

  /** Drops the unfinished pack. */
  async abort(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await unlink(this.tempPath).catch(() => undefined);
  }

  async #addEntry(oid: string, parts: readonly Buffer[]): Promise<void> {
    let crc = 0;
    let length = 0;
    for (const part of parts) {
      crc = crc32(part, crc);
      length += part.length;
      this.#push(part);
    }
    this.#entries.push({ oid, offset: this.#offset, crc });
    this.#offset += length;
    if (this.#sealed.length > 0) await this.#flush();
  }

  /** Copies `part` into the chunks (a part past the chunk's end goes on in the next one). */
  #push(part: Uint8Array): void {
    for (let from = 0; from < part.length;) {
      const count = Math.min(part.length - from, this.#chunk.length - this.#used);
      this.#chunk.set(part.subarray(from, from + count), this.#used);
      this.#used += count;
      from += count;
      if (this.#used === this.#chunk.length) {
        this.#sealed.push(this.#chunk);
        this.#chunk = Buffer.allocUnsafe(flushBytes);
        this.#used = 0;
      }
    }
  }

  /** Writes the full chunks, and with `isLast` the one being filled; each chunk's place is taken before any await. */
  async #flush(isLast = false): Promise<void> {
    if (isLast && this.#used > 0) {
      this.#sealed.push(this.#chunk.subarray(0, this.#used));
      this.#chunk = Buffer.alloc(0);
      this.#used = 0;
    }
    const writes = this.#sealed.splice(0).map((chunk) => {
      const position = this.#handed;
      this.#handed += chunk.length;
      if (this.#handed > keepInMemoryBytes) this.#kept = undefined;
      else this.#kept?.push(chunk);
      return writeFully(this.handle, chunk, position);
    });
    await Promise.all(writes);
  }

  /** SHA-1 of the whole pack (header included): from memory when kept, else by reading it back. */
  async #checksum(header: Buffer): Promise<Buffer> {
    const hash = createHash('sha1').update(header);
    if (this.#kept !== undefined) {
      // The first chunk starts with the header's placeholder, hashed above as it is now.
      for (const [index, chunk] of this.#kept.entries()) hash.update(index === 0 ? chunk.subarray(12) : chunk);
      return hash.digest();
    }
    const buffer = Buffer.alloc(4 << 20);
    for (let position = 12; position < this.#offset;) {
      const { bytesRead } = await this.handle.read(
        buffer,
        0,
        Math.min(buffer.length, this.#offset - position),
        position,
      );
      if (bytesRead === 0) throw new Error('pack shorter than written');
      hash.update(buffer.subarray(0, bytesRead));
      position += bytesRead;
    }
    return hash.digest();
  }
}

/**
 * Writes all of `bytes` at `position`, or fails: a write may take only part (a file size limit or a full
 * disk reached inside it), and the rest is written after it, which then reports why (EFBIG, ENOSPC). A
 * short write left as it was would leave a hole the checksum's read-back finds as a bare "shorter than written".
 */
async function writeFully(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < bytes.length;) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    if (bytesWritten === 0) throw new Error(`a write of ${bytes.length - done} bytes at ${position + done} wrote none`);
    done += bytesWritten;
  }
}
