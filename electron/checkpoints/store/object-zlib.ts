/*
 * zlib for the store's objects, in memory only (no file system). Most objects are small (trees,
 * commits, source files): compressing or inflating one takes microseconds, far less than a round
 * trip through libuv's thread pool (4 threads, shared with every fs call), so small ones are done
 * inline and only big ones go to the pool, where they cannot hold up the event loop.
 */
/* eslint-disable no-restricted-syntax -- CPU-only zlib of small in-memory objects, see above */
import { promisify } from 'node:util';
import { deflate, deflateSync, inflate, inflateSync } from 'node:zlib';

const deflateAsync = promisify(deflate);
const inflateAsync = promisify(inflate);

/** Up to this many bytes (of content, or of compressed data to inflate) zlib runs inline. */
const inlineBytes = 64 * 1024;

/** zlib-compresses `content` at `level`. */
export function deflateObject(content: Uint8Array, level: number): Promise<Buffer> {
  if (content.byteLength <= inlineBytes) return Promise.resolve(deflateSync(content, { level }));
  return deflateAsync(content, { level });
}

/**
 * Inflates zlib data: small data inline, as long as its result stays small (a few compressed bytes
 * can stand for megabytes), anything else in the pool.
 */
export async function inflateObject(data: Uint8Array): Promise<Buffer> {
  if (data.byteLength <= inlineBytes) {
    try {
      return inflateSync(data, { maxOutputLength: 4 * inlineBytes });
    } catch (error) {
      // Only a result too big to inflate inline goes on to the pool; damaged data fails as it would there.
      if ((error as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') throw error;
    }
  }
  return inflateAsync(data);
}
