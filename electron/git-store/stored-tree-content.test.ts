import { describe, expect, it } from 'vitest';
import { hashObject } from './git-objects';
import { storedZlib } from './object-zlib';
import { encodeEntryHeader } from './pack-file';
import { storedTreeContent } from './stored-tree-content';

/** A whole tree entry of a pack, its content stored uncompressed. */
function storedTreeEntry(content: Buffer, stream = storedZlib(content)) {
  return { bytes: Buffer.concat([encodeEntryHeader('tree', content.length), stream]), isWhole: true };
}

describe('a stored tree entry read out of a pack for compressing', () => {
  const content = Buffer.concat([Buffer.from('100644 a.txt\0'), Buffer.alloc(20, 7)]);
  const oid = hashObject('tree', content);

  it('gives the content of a valid stream that hashes to the id', async () => {
    expect((await storedTreeContent(storedTreeEntry(content), oid))?.equals(content)).toBe(true);
  });

  it('gives nothing for content that is not what its id says, or a stream zlib refuses: the entry is copied as it is', async () => {
    expect(await storedTreeContent(storedTreeEntry(content), hashObject('tree', Buffer.from('other')))).toBeUndefined();
    const damaged = storedZlib(content);
    damaged.writeUInt8((damaged[10] ?? 0) ^ 1, 10);
    expect(await storedTreeContent(storedTreeEntry(content, damaged), oid)).toBeUndefined();
    const trailing = Buffer.concat([storedZlib(content), Buffer.from([1])]);
    expect(await storedTreeContent(storedTreeEntry(content, trailing), oid)).toBeUndefined();
  });
});
