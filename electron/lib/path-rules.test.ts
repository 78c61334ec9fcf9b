import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCaseInsensitive, isPathBelow, isPathInside, pathKey, pathKeyOn, relativeInside } from './path-rules';

const root = path.resolve('/work/project');
const inRoot = (...parts: string[]): string => path.join(root, ...parts);

describe('path rules', () => {
  it('counts the folder itself and everything below it as inside, and nothing else', () => {
    expect(isPathInside(root, root)).toBe(true);
    expect(isPathInside(inRoot('src', 'a.ts'), root)).toBe(true);
    expect(isPathInside(inRoot('..foo'), root)).toBe(true);
    expect(isPathInside(path.resolve('/work/project-other/a.ts'), root)).toBe(false);
    expect(isPathInside(path.resolve('/work'), root)).toBe(false);
    expect(isPathInside(path.resolve('/elsewhere'), root)).toBe(false);
  });

  it('counts only what lies below the folder as below it, not the folder itself', () => {
    expect(isPathBelow(root, root)).toBe(false);
    expect(isPathBelow(inRoot('src'), root)).toBe(true);
    expect(isPathBelow(inRoot('src', 'a.ts'), inRoot('src'))).toBe(true);
    expect(isPathBelow(path.resolve('/work/project-other'), root)).toBe(false);
    expect(isPathBelow(path.resolve('/work'), root)).toBe(false);
  });

  it('folds case for Windows and macOS paths, not for Linux ones', () => {
    expect(pathKeyOn('C:\\Users\\Me', 'win32')).toBe('c:\\users\\me');
    expect(pathKeyOn('/Users/Me', 'darwin')).toBe('/users/me');
    expect(pathKeyOn('/home/Me', 'linux')).toBe('/home/Me');
  });

  it('gives the path relative to its folder, or undefined outside it', () => {
    expect(relativeInside(root, root)).toBe('');
    expect(relativeInside(root, inRoot('src', 'a.ts'))).toBe(path.join('src', 'a.ts'));
    expect(relativeInside(root, path.resolve('/work/project-other/a.ts'))).toBeUndefined();
  });

  it('follows the platform on case: one key and one answer for two spellings only where the file system ignores case', () => {
    const shouted = inRoot('SRC', 'A.ts').replace('project', 'PROJECT');
    expect(pathKey(shouted) === pathKey(inRoot('src', 'a.ts'))).toBe(isCaseInsensitive);
    expect(isPathInside(shouted, root)).toBe(isCaseInsensitive);
    expect(relativeInside(root, shouted)).toBe(isCaseInsensitive ? path.join('SRC', 'A.ts') : undefined);
  });
});
