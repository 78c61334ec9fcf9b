import { describe, expect, it } from 'vitest';
import { encodeSortedTree, fileModes, type TreeItem } from './git-objects';

/** A tree's bytes as git writes them: `<mode> <name>\0` and the 20-byte id, entry after entry. */
function entryByEntry(items: readonly TreeItem[]): Buffer {
  return Buffer.concat(
    items.flatMap((item) => [Buffer.from(`${item.mode} ${item.name}\0`), Buffer.from(item.oid, 'hex')]),
  );
}

describe('encodeSortedTree', () => {
  it('writes the bytes git writes, whatever the names hold', () => {
    const items: TreeItem[] = [
      { mode: fileModes.file, name: 'a.txt', oid: '0123456789abcdef0123456789abcdef01234567' },
      { mode: fileModes.tree, name: 'dossier-é', oid: '89abcdef0123456789abcdef0123456789abcdef' },
      { mode: fileModes.executable, name: 'run-😀', oid: 'ffffffffffffffffffffffffffffffffffffffff' },
      { mode: fileModes.symlink, name: 'lone-\uD800', oid: '0000000000000000000000000000000000000000' },
    ];
    expect(encodeSortedTree(items).equals(entryByEntry(items))).toBe(true);
    expect(encodeSortedTree([]).length).toBe(0);
  });

  it('encodes an id that is not 40 hex digits as Buffer.from does', () => {
    const items: TreeItem[] = [
      { mode: fileModes.file, name: 'a', oid: '0123' },
      { mode: fileModes.file, name: 'b', oid: '0123456789abcdef0123456789abcdef01234567' },
    ];
    expect(encodeSortedTree(items).equals(entryByEntry(items))).toBe(true);
    // Longer than 40 digits, last: the buffer sized for 20 bytes per id would cut it.
    const long: TreeItem[] = [
      { mode: fileModes.file, name: 'a', oid: '0123456789abcdef0123456789abcdef01234567' },
      { mode: fileModes.file, name: 'b', oid: 'ab'.repeat(32) },
    ];
    expect(encodeSortedTree(long).equals(entryByEntry(long))).toBe(true);
  });
});
