import { describe, expect, it } from 'vitest';
import { filterByPath, filterCount } from './file-filter';

const files = [{ path: 'src/App.tsx' }, { path: 'src/app.css' }, { path: 'docs/readme.md' }, { path: 'apple/x.ts' }];

describe('the changed-file filter', () => {
  it('keeps the paths that hold the text anywhere, whatever the letter case; blank keeps all', () => {
    expect(filterByPath(files, 'app').map((file) => file.path)).toEqual(['src/App.tsx', 'src/app.css', 'apple/x.ts']);
    expect(filterByPath(files, ' SRC/ ').map((file) => file.path)).toEqual(['src/App.tsx', 'src/app.css']);
    expect(filterByPath(files, 'nothing')).toEqual([]);
    expect(filterByPath(files, '  ')).toBe(files);
  });

  it('says how many of how many files it shows', () => {
    expect(filterCount(3, 12, true)).toBe('3 of 12 files');
    expect(filterCount(0, 1, true)).toBe('0 of 1 file');
    expect(filterCount(1200, 1200, false)).toBe('1,200 files');
  });
});
