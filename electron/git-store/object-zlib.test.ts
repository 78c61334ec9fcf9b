import { randomBytes } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressBlocking } from '../checkpoints/snapshot/blocking-io';
import {
  deflateObject,
  inflateObject,
  inlineZlibMaxBytes,
  ownBytes,
  storedZlib,
  unstoredZlib,
  windowBitsFor,
} from './object-zlib';

/** A tree-like mix: text that repeats (names, modes) and bytes that do not (object ids). */
function treeLike(entries: number): Buffer {
  const parts: Buffer[] = [];
  for (let index = 0; index < entries; index += 1)
    parts.push(Buffer.from(`100644 file-${index}.txt\0`), randomBytes(20));
  return Buffer.concat(parts);
}

describe('object deflation', () => {
  it('deflates small objects with a window that holds them: the same stream as the default window, only the header differs', async () => {
    const inputs = [
      Buffer.alloc(0),
      Buffer.from('tree 0\0'),
      Buffer.from('commit message\n'.repeat(20)),
      treeLike(100),
      treeLike(500),
      Buffer.alloc(inlineZlibMaxBytes, 'ab'),
      randomBytes(inlineZlibMaxBytes),
    ];
    for (const input of inputs) {
      const ours = await deflateObject(input, 1);
      const standard = deflateSync(input, { level: 1 });
      expect(inflateSync(ours).equals(input)).toBe(true);
      // Byte 0 names the window size (and byte 1 checks byte 0); everything after, the trailer included, is the same.
      expect(ours.subarray(2).equals(standard.subarray(2))).toBe(true);
      expect(ours[0]).toBe(((windowBitsFor(input.length) - 8) << 4) | 8);
    }
  });

  it('builds level 0 streams that zlib inflates and checks (Adler-32) back to the input, one stored block per 64 KiB', async () => {
    for (const size of [0, 1, 5_552, 5_553, 65_535, 65_536, 200_000]) {
      const input = size % 2 === 0 ? randomBytes(size) : Buffer.alloc(size, 0xff);
      const stored = await deflateObject(input, 0);
      expect(stored.subarray(7, 7 + Math.min(size, 65_535)).equals(input.subarray(0, 65_535))).toBe(true);
      expect(inflateSync(stored).equals(input), `${size} bytes`).toBe(true);
      expect(stored.length).toBe(2 + Math.max(1, Math.ceil(size / 65_535)) * 5 + size + 4);
    }
    // A damaged byte is caught by the checksum, as in any zlib stream.
    const damaged = storedZlib(Buffer.from('tree content'));
    damaged.writeUInt8((damaged[8] ?? 0) ^ 1, 8);
    expect(() => inflateSync(damaged)).toThrow();
  });

  it('reads stored blocks back without zlib, checking the Adler-32, and leaves compressed streams to inflate', async () => {
    for (const size of [0, 1, 65_535, 65_536, 200_000]) {
      const input = randomBytes(size);
      expect(unstoredZlib(storedZlib(input))?.equals(input), `${size} bytes`).toBe(true);
      expect(unstoredZlib(deflateSync(input, { level: 0 }))?.equals(input), `zlib's own, ${size} bytes`).toBe(true);
    }
    expect(unstoredZlib(await deflateObject(Buffer.from('tree '.repeat(100)), 1))).toBeUndefined();
    const damaged = storedZlib(Buffer.from('tree content'));
    damaged.writeUInt8((damaged[8] ?? 0) ^ 1, 8);
    expect(() => unstoredZlib(damaged)).toThrow(/Adler-32/);
    expect(() => unstoredZlib(storedZlib(Buffer.from('tree content')).subarray(0, 12))).toThrow(/cut short/);
  });

  it('refuses a bad header and a damaged block length, as zlib does, and bytes after the end', () => {
    const good = storedZlib(Buffer.from('tree content'));
    const badLength = Buffer.from(good);
    badLength.writeUInt8((badLength[5] ?? 0) ^ 1, 5);
    const withHeader = (cmf: number, flg: number): Buffer => Buffer.concat([Buffer.from([cmf, flg]), good.subarray(2)]);
    for (const [stream, message] of [
      [badLength, /block length/],
      [withHeader(0, 0), /not a zlib stream/], // not deflate
      [withHeader(0x78, 0x02), /not a zlib stream/], // check bits that do not make a multiple of 31
      [withHeader(0x88, 0x1c), /not a zlib stream/], // a window past 32 KiB, check bits right
      [withHeader(0x78, 0x20), /not a zlib stream/], // a preset dictionary, check bits right
    ] as const) {
      expect(() => inflateSync(stream)).toThrow();
      expect(() => unstoredZlib(stream)).toThrow(message);
    }
    // zlib stops at the end of the stream and ignores what follows; a pack entry has nothing there.
    expect(() => unstoredZlib(Buffer.concat([good, Buffer.from([0])]))).toThrow(/after its end/);
  });

  it('sizes the window from 2^9 to 2^15 bytes, leaving room for zlib lookahead', () => {
    expect(windowBitsFor(0)).toBe(9);
    expect(windowBitsFor(250)).toBe(9);
    expect(windowBitsFor(251)).toBe(10);
    expect(windowBitsFor(3_500)).toBe(12);
    expect(windowBitsFor(inlineZlibMaxBytes)).toBe(15);
    expect(windowBitsFor(10_000_000)).toBe(15);
  });
});

describe('compressed bytes that are kept', () => {
  it("hold memory of about their own size, not zlib's 16 KiB output chunk (a 50k-file snapshot pinned 800 MiB that way)", async () => {
    const content = Buffer.from('export const answer = 42;\n');
    const raw = deflateSync(content, { level: 1 });
    // What zlib hands back: a slice of a chunk far bigger than the bytes (the reason for ownBytes).
    expect(raw.buffer.byteLength).toBeGreaterThanOrEqual(16 * 1024);
    for (const kept of [compressBlocking(content), await deflateObject(content, 1), await inflateObject(raw)]) {
      expect(kept.buffer.byteLength).toBeLessThanOrEqual(8 * 1024);
    }
    expect(inflateSync(compressBlocking(content))).toEqual(content);
    expect(await inflateObject(await deflateObject(content, 1))).toEqual(content);
    // A buffer that already owns its memory is returned as it is.
    const whole = Buffer.alloc(100_000);
    expect(ownBytes(whole)).toBe(whole);
  });
});
