import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveRendererFile } from './renderer-file';

const root = path.resolve('/srv/vigil/out/renderer');

describe('resolveRendererFile', () => {
  it('maps app://vigil paths to files inside the renderer folder', () => {
    expect(resolveRendererFile(root, 'app://vigil/')).toBe(path.join(root, 'index.html'));
    expect(resolveRendererFile(root, 'app://vigil/index.html')).toBe(path.join(root, 'index.html'));
    expect(resolveRendererFile(root, 'app://vigil/assets/index-abc.js?v=1#x')).toBe(
      path.join(root, 'assets', 'index-abc.js'),
    );
    expect(resolveRendererFile(root, 'app://vigil/assets/a%20b.css')).toBe(path.join(root, 'assets', 'a b.css'));
  });

  it('keeps dot segments inside the folder (the URL parser resolves them against the root)', () => {
    expect(resolveRendererFile(root, 'app://vigil/../../etc/passwd')).toBe(path.join(root, 'etc', 'passwd'));
    expect(resolveRendererFile(root, 'app://vigil/%2e%2e/%2e%2e/etc/passwd')).toBe(path.join(root, 'etc', 'passwd'));
  });

  it('refuses every way out of the folder', () => {
    for (const url of [
      'app://vigil/assets/..%2f..%2f..%2fetc%2fpasswd',
      'app://vigil/%2f..%2f..%2f..%2fetc%2fpasswd',
      'app://vigil/..%5c..%5csecret',
      'app://vigil/assets%5c..%5c..%5csecret',
      'app://vigil/index.html%00.js',
      'app://vigil/%E0%A4%A',
    ]) {
      expect(resolveRendererFile(root, url), url).toBeUndefined();
    }
  });

  it('refuses other hosts and schemes', () => {
    expect(resolveRendererFile(root, 'app://evil/index.html')).toBeUndefined();
    expect(resolveRendererFile(root, 'file:///srv/vigil/out/renderer/index.html')).toBeUndefined();
    expect(resolveRendererFile(root, 'https://vigil/index.html')).toBeUndefined();
    expect(resolveRendererFile(root, 'not a url')).toBeUndefined();
  });
});
