/**
 * git's EWAH bitmaps as it writes them (`ewah/ewah_io.c`), read for the set bits' positions: a
 * 32-bit bit count, a 32-bit word count, that many 64-bit words (all big-endian), then the 32-bit
 * position of the last marker word. The words are runs: a marker word (bit 0 the run's bit, bits
 * 1–32 the run's length in words, bits 33–63 how many literal words follow it), then its literal
 * words, whose bit c stands for position 64 × (word) + c.
 */

/** The set bits of one bitmap, ascending, and the offset just after it; or why it cannot be read. */
export type EwahRead = { readonly bits: number[]; readonly end: number } | { readonly error: string };

const wordBits = 64;

/**
 * The positions of the set bits of the EWAH bitmap at `offset` of `bytes`, each below `limit` (a
 * set bit at or past it is an error: a damaged bitmap can never claim more positions than that).
 */
export function readEwahBitmap(bytes: Uint8Array, offset: number, limit: number): EwahRead {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (offset + 8 > bytes.length) return { error: 'the bitmap ends before its header' };
  const wordCount = view.getUint32(offset + 4);
  const wordsStart = offset + 8;
  const end = wordsStart + wordCount * 8 + 4;
  if (end > bytes.length) return { error: 'the bitmap ends inside its words' };
  const bits: number[] = [];
  let position = 0;
  let word = 0;
  while (word < wordCount) {
    const at = wordsStart + word * 8;
    const high = view.getUint32(at);
    const low = view.getUint32(at + 4);
    // Bits 1–32: the run's length in words (bit 32 is the high half's bit 0).
    const runWords = (low >>> 1) + (high & 1) * 0x80000000;
    const literalWords = high >>> 1;
    word += 1;
    if ((low & 1) !== 0) {
      if (position + runWords * wordBits > limit) return { error: `a run of set bits passes position ${limit}` };
      for (let index = 0; index < runWords * wordBits; index += 1) bits.push(position + index);
    }
    position += runWords * wordBits;
    if (word + literalWords > wordCount) return { error: 'a marker word counts more words than the bitmap holds' };
    for (let literal = 0; literal < literalWords; literal += 1, word += 1, position += wordBits) {
      const literalAt = wordsStart + word * 8;
      const error = pushSetBits(bits, view.getUint32(literalAt + 4), position, limit);
      if (error !== undefined) return { error };
      const errorHigh = pushSetBits(bits, view.getUint32(literalAt), position + 32, limit);
      if (errorHigh !== undefined) return { error: errorHigh };
    }
  }
  return { bits, end };
}

/** Adds the set bits of one 32-bit half word, bit c at `base` + c; an error when one is at or past `limit`. */
function pushSetBits(bits: number[], half: number, base: number, limit: number): string | undefined {
  for (let rest = half; rest !== 0; rest &= rest - 1) {
    const position = base + (31 - Math.clz32(rest & -rest));
    if (position >= limit) return `a set bit at position ${position} passes ${limit - 1}`;
    bits.push(position);
  }
  return undefined;
}
