import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodePackIndex, PackIndex } from './pack-index';

describe('a pack index', () => {
  it('finds where each entry ends, by scanning the offsets for the first reads and from a sorted copy after, large offsets included', () => {
    // Offsets in another order than the ids, one past 2 GiB (stored in the large-offset table).
    const offsets = [12, 5_000, 180, 0x8000_0010, 77, 9_999, 2_400, 300];
    const entries = offsets.map((offset, index) => ({
      oid: createHash('sha1').update(String(index)).digest('hex'),
      offset,
      crc: index,
    }));
    const index = new PackIndex(encodePackIndex(entries, Buffer.alloc(20)));
    const packSize = 0x8000_1000;
    const sorted = [...offsets].sort((a, b) => a - b);
    const expected = sorted.map((offset, position) => sorted[position + 1] ?? packSize - 20);
    // Three rounds: the first reads scan the table, the later ones use the sorted copy; all agree.
    for (let round = 0; round < 3; round += 1)
      expect(sorted.map((offset) => index.endOf(offset, packSize))).toEqual(expected);
    for (const entry of entries) expect(index.find(entry.oid)).toBe(entry.offset);
  });
});
