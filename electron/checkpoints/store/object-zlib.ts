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

/** Deflates an object's bytes (inline when small, with a window no larger than the object needs). */
export async function deflateObject(raw: Uint8Array, level: number): Promise<Buffer> {
  return raw.length <= inlineZlibMaxBytes
    ? deflateSync(raw, { level, windowBits: windowBitsFor(raw.length) })
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
    return inflateSync(compressed, { maxOutputLength: ceiling });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') throw error;
    return inflateAsync(compressed);
  }
}
