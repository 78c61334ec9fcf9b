import { hashObject } from './git-objects';
import { DamagedZlibStream, inflateObject, unstoredZlib } from './object-zlib';
import { parseEntryHeader, typeNames, type RawPackEntry } from './pack-file';

/** Whether an error says the stream is damaged (ours or zlib's, whose codes start Z_), not that the code is wrong. */
function isDamagedStream(error: unknown): boolean {
  return error instanceof DamagedZlibStream || String((error as NodeJS.ErrnoException).code).startsWith('Z_');
}

/**
 * A tree entry's content when its zlib stream starts with a stored (uncompressed) block, as one
 * written at level 0 does (a restore's pre-rollback snapshot, see writeTrees), else undefined: a
 * collection compresses such trees instead of copying them as they are. Only a stream zlib reads,
 * whose content has its header's size and hashes to `oid`, is given back; anything else is left
 * undefined, so the collection copies it as it is, as it copies every other entry.
 */
export async function storedTreeContent(entry: RawPackEntry, oid: string): Promise<Buffer | undefined> {
  if (!entry.isWhole) return undefined;
  const { type, size, headerLength } = parseEntryHeader(entry.bytes);
  if (typeNames[type] !== 'tree') return undefined;
  // Bits 1-2 of a deflate block's first byte (after the 2-byte zlib header) are its type: 00 is stored.
  if (((entry.bytes[headerLength + 2] ?? 0) & 0b110) !== 0) return undefined;
  const data = entry.bytes.subarray(headerLength);
  try {
    const content = unstoredZlib(data) ?? (await inflateObject(data, size));
    return content.length === size && hashObject('tree', content) === oid ? content : undefined;
  } catch (error) {
    if (isDamagedStream(error)) return undefined;
    throw error;
  }
}
