import { describe, expect, it } from 'vitest';
import { filesInTreeOrder, fileTreeRows } from './file-tree';

describe('file tree rows', () => {
  it('shows folders first, then files, joins single-folder chains, and lists the files under each folder', () => {
    const rows = fileTreeRows([
      'src/app/b.ts',
      'README.md',
      'src/app/a.ts',
      'src/util.ts',
      'docs/deep/er/x.md',
      'src/lib/c.ts',
    ]);
    expect(rows.map((row) => `${'  '.repeat(row.depth)}${row.name}`)).toEqual([
      'docs/deep/er/',
      '  x.md',
      'src/',
      '  app/',
      '    a.ts',
      '    b.ts',
      '  lib/',
      '    c.ts',
      '  util.ts',
      'README.md',
    ]);
    const src = rows.find((row) => row.key === 'src/');
    expect(src?.kind === 'folder' && src.files).toEqual([
      'src/app/a.ts',
      'src/app/b.ts',
      'src/lib/c.ts',
      'src/util.ts',
    ]);
    expect(filesInTreeOrder(rows)).toEqual([
      'docs/deep/er/x.md',
      'src/app/a.ts',
      'src/app/b.ts',
      'src/lib/c.ts',
      'src/util.ts',
      'README.md',
    ]);
  });

  it('keeps a flat list flat', () => {
    expect(fileTreeRows(['b.txt', 'a.txt']).map((row) => `${row.depth}:${row.key}`)).toEqual(['0:a.txt', '0:b.txt']);
  });
});
