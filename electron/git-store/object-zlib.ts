/* eslint-disable no-restricted-syntax -- zlib's inline calls are bounded CPU work on small objects, never file-system waits; see inlineZlibMaxBytes */
import { promisify } from 'node:util';
import { deflate, deflateSync, inflate, inflateSync } from 'node:zlib';

const deflateAsync = promisify(deflate);
const inflateAsync = promisify(inflate);

/**
 * Objects up to this size are (de)compressed on the calling thread. zlib's thread-pool round trip
 * costs more than the work for small objects (measured here: a 200-byte commit deflates in 21 µs of
 * CPU on the thread against 135 µs through the pool, a 20 KB tree 85 against 221 µs, and each pool
 * call adds a hop of latency), and a resident core writes a checkpoint as a few such objects. A
 * 32 KiB object holds the thread for about 0.3 ms; anything larger goes to the pool.
 */
export const inlineZlibMaxBytes = 32 * 1024;

/**
 * The smallest zlib window (2^bits bytes, 9 to 15) that holds `length` bytes of input plus zlib's
 * lookahead: no match can reach further back than the input itself, so the compressed bytes are the
 * same as with the default 32 KiB window, but zlib allocates and clears less for each small object.
 */
export function windowBitsFor(length: number): number {
  return Math.min(15, Math.max(9, Math.ceil(Math.log2(length + 262))));
}

/**
 * `buffer`, copied to memory of its own size when it is a small slice of a much larger block.
 * zlib's inline calls return a slice of a 16 KiB output chunk: a 28-byte object kept that way (a
 * pack's parts held for its checksum, a cache) pins the whole chunk, and a 50,000-file snapshot
 * held 800 MiB of them in its hashing workers. A small copy comes from Node's shared 8 KiB pool.
 */
export function ownBytes(buffer: Buffer): Buffer {
  return buffer.buffer.byteLength > 2 * buffer.length + 64 ? Buffer.from(buffer) : buffer;
}

/** The most bytes one stored deflate block holds. */
const storedBlockBytes = 0xffff;

/** zlib's Adler-32 of `bytes` (the sums are reduced every 5,552 bytes, as zlib does, so they stay exact). */
function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let start = 0; start < bytes.length; start += 5552) {
    const end = Math.min(bytes.length, start + 5552);
    for (let at = start; at < end; at += 1) {
      a += bytes[at] ?? 0;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * The zlib stream of `raw` at level 0 (stored blocks, nothing compressed), built here: what
 * `deflateSync(raw, { level: 0 })` gives, without setting up a zlib stream for each object.
 */
export function storedZlib(raw: Uint8Array): Buffer {
  const blocks = Math.max(1, Math.ceil(raw.length / storedBlockBytes));
  const out = Buffer.allocUnsafe(2 + blocks * 5 + raw.length + 4);
  // CMF 0x78 (deflate, 32 KiB window), FLG 0x01 (level "fastest", no dictionary, header check).
  out[0] = 0x78;
  out[1] = 0x01;
  let at = 2;
  for (let block = 0; block < blocks; block += 1) {
    const start = block * storedBlockBytes;
    const length = Math.min(storedBlockBytes, raw.length - start);
    out[at] = block === blocks - 1 ? 1 : 0; // BFINAL on the last; BTYPE 00: stored
    out.writeUInt16LE(length, at + 1);
    out.writeUInt16LE(~length & 0xffff, at + 3);
    out.set(raw.subarray(start, start + length), at + 5);
    at += 5 + length;
  }
  out.writeUInt32BE(adler32(raw), at);
  return out;
}

/** A zlib stream that zlib would refuse (bad header, damaged block length, cut short, bad checksum). */
export class DamagedZlibStream extends Error {}

/** Whether a zlib header is valid and names deflate with no preset dictionary (RFC 1950). */
function isPlainZlibHeader(cmf: number, flg: number): boolean {
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && (cmf * 256 + flg) % 31 === 0 && (flg & 0x20) === 0;
}

/**
 * The bytes of a zlib stream made only of stored blocks (as `storedZlib` builds), checked against
 * its Adler-32; undefined when a block is compressed (inflate it instead). Throws on anything
 * zlib would refuse: a bad header, a block length whose complement does not match, a stream cut
 * short, bytes after its checksum, or a checksum that does not match.
 */
export function unstoredZlib(stream: Uint8Array): Buffer | undefined {
  const bytes = Buffer.from(stream.buffer, stream.byteOffset, stream.byteLength);
  if (bytes.length < 2 || !isPlainZlibHeader(bytes[0] ?? 0, bytes[1] ?? 0))
    throw new DamagedZlibStream('not a zlib stream');
  const parts: Buffer[] = [];
  let at = 2;
  for (let isFinal = false; !isFinal;) {
    if (at + 5 > bytes.length) throw new DamagedZlibStream('zlib stream cut short');
    const head = bytes[at] ?? 0;
    if ((head & 0b110) !== 0) return undefined;
    isFinal = (head & 1) === 1;
    const length = bytes.readUInt16LE(at + 1);
    if (bytes.readUInt16LE(at + 3) !== (~length & 0xffff))
      throw new DamagedZlibStream('zlib stored block length is damaged');
    if (at + 5 + length > bytes.length) throw new DamagedZlibStream('zlib stream cut short');
    parts.push(bytes.subarray(at + 5, at + 5 + length));
    at += 5 + length;
  }
  const content = Buffer.concat(parts);
  if (at + 4 > bytes.length) throw new DamagedZlibStream('zlib stream cut short');
  if (at + 4 < bytes.length) throw new DamagedZlibStream('zlib stream has bytes after its end');
  if (bytes.readUInt32BE(at) !== adler32(content)) throw new DamagedZlibStream('zlib stream fails its Adler-32 check');
  return content;
}

/**
 * Deflates an object's bytes (inline when small, with a window no larger than the object needs;
 * level 0 built here).
 */
export async function deflateObject(raw: Uint8Array, level: number): Promise<Buffer> {
  if (level === 0) return storedZlib(raw);
  return raw.length <= inlineZlibMaxBytes
    ? ownBytes(deflateSync(raw, { level, windowBits: windowBitsFor(raw.length) }))
    : deflateAsync(raw, { level });
}

/**
 * Inflates an object's bytes. `expectedBytes` is the inflated size when the caller knows it (a pack
 * entry's header says it); a loose object's is unknown, so it is tried inline with a ceiling and
 * handed to the pool when it turns out bigger.
 */
export async function inflateObject(compressed: Uint8Array, expectedBytes?: number): Promise<Buffer> {
  // A size that lies (a corrupt pack entry) must not hold the thread: the inline call stops at the size it was told.
  const ceiling = expectedBytes === undefined ? inlineZlibMaxBytes * 4 : Math.max(1, expectedBytes);
  const isSmall =
    expectedBytes === undefined ? compressed.length <= inlineZlibMaxBytes : expectedBytes <= inlineZlibMaxBytes;
  if (!isSmall) return inflateAsync(compressed);
  try {
    return ownBytes(inflateSync(compressed, { maxOutputLength: ceiling }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') throw error;
    return inflateAsync(compressed);
  }
}
