import { open, type FileHandle } from 'node:fs/promises';
import type { ObjectType } from './git-objects';
import { inflateObject } from './object-zlib';
import type { PackIndex } from './pack-index';

/** Pack entry type numbers. */
export const typeNames: Readonly<Record<number, ObjectType>> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const ofsDelta = 6;
const refDelta = 7;

/** Whether an entry of this type is a whole object (not a delta), so that copying it alone is valid. */
function isWholeType(type: number): boolean {
  return type !== ofsDelta && type !== refDelta;
}

/** An object read out of a pack (deltas resolved). */
export interface PackedObject {
  readonly type: ObjectType;
  readonly content: Buffer;
}

/** The raw bytes of one pack entry, as they can be copied into another pack unchanged. */
export interface RawPackEntry {
  /** The entry's header plus its compressed data. */
  readonly bytes: Buffer;
  /** Whether it is a whole object (not a delta), so that copying it alone is valid. */
  readonly isWhole: boolean;
}

/** Looks an object up in every pack of the store (for REF_DELTA bases). */
export type ObjectLookup = (oid: string) => Promise<PackedObject>;

/** One pack and its index: reads objects by offset, resolving OFS and REF deltas. */
export class PackFile {
  readonly #handle: FileHandle;

  private constructor(
    readonly name: string,
    readonly index: PackIndex,
    readonly size: number,
    handle: FileHandle,
  ) {
    this.#handle = handle;
  }

  /** Opens a pack (`pack-<sha>.pack`) whose index was already parsed. */
  static async open(packPath: string, name: string, index: PackIndex): Promise<PackFile> {
    const handle = await open(packPath, 'r');
    try {
      const { size } = await handle.stat();
      return new PackFile(name, index, size, handle);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Reads the object at `offset`. */
  async readAt(offset: number, lookup: ObjectLookup): Promise<PackedObject> {
    const raw = await this.#readRaw(offset);
    const { type, size, headerLength } = parseEntryHeader(raw);
    if (type === ofsDelta || type === refDelta) {
      let at = headerLength;
      let base: PackedObject;
      if (type === ofsDelta) {
        let byte = raw[at++] ?? 0;
        let distance = byte & 0x7f;
        while ((byte & 0x80) !== 0) {
          byte = raw[at++] ?? 0;
          distance = (distance + 1) * 128 + (byte & 0x7f);
        }
        base = await this.readAt(offset - distance, lookup);
      } else {
        base = await lookup(raw.toString('hex', at, at + 20));
        at += 20;
      }
      const delta = await inflateObject(raw.subarray(at), size);
      return { type: base.type, content: applyDelta(base.content, delta) };
    }
    const typeName = typeNames[type];
    if (typeName === undefined) throw new Error(`unknown pack entry type ${type} in ${this.name}`);
    return { type: typeName, content: await inflateObject(raw.subarray(headerLength), size) };
  }

  /** The raw entry at `offset`, for copying into a new pack. */
  async rawAt(offset: number): Promise<RawPackEntry> {
    const bytes = await this.#readRaw(offset);
    const { type } = parseEntryHeader(bytes);
    return { bytes, isWhole: isWholeType(type) };
  }

  /**
   * The raw entries at `offsets` (ascending), read in few large reads of up to `windowBytes`
   * (one entry bigger than that is read alone): for copying many objects into a new pack,
   * where one read per object costs far more than the bytes.
   */
  async *rawEntries(
    offsets: readonly number[],
    windowBytes = 4 * 1024 * 1024,
  ): AsyncGenerator<{ readonly offset: number; readonly entry: RawPackEntry }> {
    for (let first = 0; first < offsets.length;) {
      const start = offsets[first] as number;
      let last = first;
      let end = this.index.endOf(start, this.size);
      while (last + 1 < offsets.length) {
        const nextEnd = this.index.endOf(offsets[last + 1] as number, this.size);
        if (nextEnd - start > windowBytes) break;
        last += 1;
        end = nextEnd;
      }
      const window = Buffer.alloc(end - start);
      const { bytesRead } = await this.#handle.read(window, 0, window.length, start);
      if (bytesRead !== window.length) throw new Error(`truncated pack ${this.name}`);
      for (let at = first; at <= last; at += 1) {
        const offset = offsets[at] as number;
        // Copied out: a slice would keep the whole window alive for as long as the entry is kept.
        const bytes = Buffer.from(window.subarray(offset - start, this.index.endOf(offset, this.size) - start));
        const { type } = parseEntryHeader(bytes);
        yield { offset, entry: { bytes, isWhole: isWholeType(type) } };
      }
      first = last + 1;
    }
  }

  /** Closes the pack's file handle. */
  close(): Promise<void> {
    return this.#handle.close();
  }

  async #readRaw(offset: number): Promise<Buffer> {
    const end = this.index.endOf(offset, this.size);
    const buffer = Buffer.alloc(end - offset);
    const { bytesRead } = await this.#handle.read(buffer, 0, buffer.length, offset);
    if (bytesRead !== buffer.length) throw new Error(`truncated pack ${this.name}`);
    return buffer;
  }
}

/** The type number and header length of a pack entry. */
export function parseEntryHeader(raw: Buffer): { type: number; size: number; headerLength: number } {
  let byte = raw[0] ?? 0;
  const type = (byte >> 4) & 7;
  let size = byte & 0x0f;
  let shift = 4;
  let at = 1;
  while ((byte & 0x80) !== 0) {
    byte = raw[at++] ?? 0;
    size += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  }
  return { type, size, headerLength: at };
}

/** Encodes a pack entry header for a whole object. */
export function encodeEntryHeader(type: ObjectType, size: number): Buffer {
  const number = type === 'commit' ? 1 : type === 'tree' ? 2 : type === 'blob' ? 3 : 4;
  const bytes: number[] = [];
  let byte = (number << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}

/** Reads a delta's size varint. */
function readSize(delta: Buffer, start: number): [number, number] {
  let size = 0;
  let shift = 0;
  let at = start;
  let byte: number;
  do {
    byte = delta[at++] ?? 0;
    size += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while ((byte & 0x80) !== 0);
  return [size, at];
}

/** Applies a git delta (copy/insert instructions) to its base. */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  const [baseSize, afterBase] = readSize(delta, 0);
  if (baseSize !== base.length) throw new Error('delta does not fit its base');
  const [resultSize, start] = readSize(delta, afterBase);
  const out = Buffer.alloc(resultSize);
  let at = start;
  let written = 0;
  while (at < delta.length) {
    const op = delta[at++] ?? 0;
    if ((op & 0x80) !== 0) {
      let copyOffset = 0;
      let copySize = 0;
      for (let bit = 0; bit < 4; bit += 1)
        if ((op & (1 << bit)) !== 0) copyOffset += (delta[at++] ?? 0) * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit += 1)
        if ((op & (1 << (4 + bit))) !== 0) copySize += (delta[at++] ?? 0) * 2 ** (8 * bit);
      if (copySize === 0) copySize = 0x10000;
      base.copy(out, written, copyOffset, copyOffset + copySize);
      written += copySize;
    } else if (op > 0) {
      delta.copy(out, written, at, at + op);
      written += op;
      at += op;
    } else {
      throw new Error('invalid delta instruction');
    }
  }
  if (written !== resultSize) throw new Error('delta produced the wrong size');
  return out;
}
