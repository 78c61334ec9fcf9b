import { createHash } from 'node:crypto';

const magic = Buffer.from([0xff, 0x74, 0x4f, 0x63]);

/** How many entry ends are looked up by a scan of the offset table before it is sorted once. */
const scansBeforeSorting = 8;

/** One object of a pack, as its index records it. */
export interface PackIndexEntry {
  readonly oid: string;
  readonly offset: number;
  readonly crc: number;
}

/** A parsed `.idx` (version 2): finds an object's offset in its pack by binary search. */
export class PackIndex {
  readonly count: number;
  /** The pack's own checksum (its last 20 bytes), as hex. */
  readonly packChecksum: string;
  readonly #data: Buffer;
  #sortedOffsets: Float64Array | undefined;
  /** How many ends were found by scanning, before the offsets are sorted once. */
  #scans = 0;

  constructor(data: Buffer) {
    if (data.length < 8 + 1024 + 40 || !data.subarray(0, 4).equals(magic) || data.readUInt32BE(4) !== 2) {
      throw new Error('not a version-2 pack index');
    }
    this.#data = data;
    this.count = data.readUInt32BE(8 + 255 * 4);
    if (data.length < 8 + 1024 + this.count * 28 + 40) throw new Error('truncated pack index');
    this.packChecksum = data.toString('hex', data.length - 40, data.length - 20);
  }

  /** The pack offset of an object, or undefined when this pack does not hold it. */
  find(oid: string): number | undefined {
    const index = this.#position(Buffer.from(oid, 'hex'));
    return index === undefined ? undefined : this.#offsetAt(index);
  }

  /** Where the entry at `offset` ends: the next entry's offset, or the start of the trailer. */
  endOf(offset: number, packSize: number): number {
    // A sorted copy of every offset pays off over many reads (a diff, a restore); a one-shot
    // checkpoint reads a few objects of a 50,000-object pack, and a scan of the table for each
    // costs well under a millisecond where sorting it costs ~15.
    if (this.#sortedOffsets === undefined && this.#scans < scansBeforeSorting) {
      this.#scans += 1;
      return this.#nextOffset(offset, packSize - 20);
    }
    const sorted = this.#offsets();
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((sorted[middle] ?? 0) <= offset) low = middle + 1;
      else high = middle;
    }
    return low < sorted.length ? (sorted[low] ?? packSize - 20) : packSize - 20;
  }

  /** Every object of the pack, in id order. */
  *entries(): Generator<PackIndexEntry> {
    const oidsAt = 8 + 1024;
    const crcAt = oidsAt + this.count * 20;
    for (let index = 0; index < this.count; index += 1) {
      yield {
        oid: this.#data.toString('hex', oidsAt + index * 20, oidsAt + index * 20 + 20),
        offset: this.#offsetAt(index),
        crc: this.#data.readUInt32BE(crcAt + index * 4),
      };
    }
  }

  #position(oid: Buffer): number | undefined {
    const first = oid[0] ?? 0;
    let low = first === 0 ? 0 : this.#data.readUInt32BE(8 + (first - 1) * 4);
    let high = this.#data.readUInt32BE(8 + first * 4);
    const oidsAt = 8 + 1024;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const start = oidsAt + middle * 20;
      const order = this.#data.compare(oid, 0, 20, start, start + 20);
      if (order === 0) return middle;
      if (order < 0) low = middle + 1;
      else high = middle;
    }
    return undefined;
  }

  #offsetAt(index: number): number {
    const offsetsAt = 8 + 1024 + this.count * 24;
    const small = this.#data.readUInt32BE(offsetsAt + index * 4);
    if ((small & 0x80000000) === 0) return small;
    const largeAt = offsetsAt + this.count * 4 + (small & 0x7fffffff) * 8;
    return Number(this.#data.readBigUInt64BE(largeAt));
  }

  /** The smallest offset after `offset` (or `end`), by one pass over the offset table. */
  #nextOffset(offset: number, end: number): number {
    const offsetsAt = 8 + 1024 + this.count * 24;
    let next = end;
    for (let index = 0; index < this.count; index += 1) {
      const small = this.#data.readUInt32BE(offsetsAt + index * 4);
      const value = (small & 0x80000000) === 0 ? small : this.#offsetAt(index);
      if (value > offset && value < next) next = value;
    }
    return next;
  }

  #offsets(): Float64Array {
    if (this.#sortedOffsets === undefined) {
      const offsets = new Float64Array(this.count);
      for (let index = 0; index < this.count; index += 1) offsets[index] = this.#offsetAt(index);
      this.#sortedOffsets = offsets.sort();
    }
    return this.#sortedOffsets;
  }
}

/** Builds a version-2 `.idx` for a pack with these entries and this trailer checksum. */
export function encodePackIndex(entries: readonly PackIndexEntry[], packChecksum: Buffer): Buffer {
  const sorted = [...entries].sort((a, b) => (a.oid < b.oid ? -1 : a.oid > b.oid ? 1 : 0));
  const count = sorted.length;
  const large = sorted.filter((entry) => entry.offset >= 0x80000000);
  const out = Buffer.alloc(8 + 1024 + count * 28 + large.length * 8 + 40);
  magic.copy(out, 0);
  out.writeUInt32BE(2, 4);
  const fanout = new Uint32Array(256);
  for (const entry of sorted) {
    const byte = parseInt(entry.oid.slice(0, 2), 16);
    fanout[byte] = (fanout[byte] ?? 0) + 1;
  }
  let running = 0;
  for (let byte = 0; byte < 256; byte += 1) {
    running += fanout[byte] ?? 0;
    out.writeUInt32BE(running, 8 + byte * 4);
  }
  const oidsAt = 8 + 1024;
  const crcAt = oidsAt + count * 20;
  const offsetsAt = crcAt + count * 4;
  const largeAt = offsetsAt + count * 4;
  let largeIndex = 0;
  sorted.forEach((entry, index) => {
    out.write(entry.oid, oidsAt + index * 20, 'hex');
    out.writeUInt32BE(entry.crc >>> 0, crcAt + index * 4);
    if (entry.offset < 0x80000000) {
      out.writeUInt32BE(entry.offset, offsetsAt + index * 4);
    } else {
      out.writeUInt32BE((0x80000000 | largeIndex) >>> 0, offsetsAt + index * 4);
      out.writeBigUInt64BE(BigInt(entry.offset), largeAt + largeIndex * 8);
      largeIndex += 1;
    }
  });
  const trailerAt = largeAt + large.length * 8;
  packChecksum.copy(out, trailerAt);
  createHash('sha1')
    .update(out.subarray(0, trailerAt + 20))
    .digest()
    .copy(out, trailerAt + 20);
  return out;
}
