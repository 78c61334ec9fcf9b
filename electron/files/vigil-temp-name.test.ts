import { threadId } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { isVigilTempFile, parseVigilTempName, vigilTempName } from './vigil-temp-name';

describe('Vigil temp file names', () => {
  it('are fresh every time, across many refills of the random pool, and name this writer', () => {
    const names = Array.from({ length: 10_000 }, () => vigilTempName('index.ts'));
    expect(new Set(names).size).toBe(names.length);
    // The random parts too (not only whole names): no 12-hex suffix comes back.
    expect(new Set(names.map((name) => name.slice(-12))).size).toBe(names.length);
    for (const name of names.slice(0, 1_500)) {
      expect(name).toMatch(/^\.index\.ts\.vigil-tmp-\d+-\d+-[0-9a-f]{12}$/u);
      expect(parseVigilTempName(name)).toEqual({ pid: process.pid, thread: threadId });
    }
  });

  it('are told apart from ordinary names, with or without a folder in front', () => {
    expect(isVigilTempFile(`src/${vigilTempName('a.txt')}`)).toBe(true);
    expect(isVigilTempFile('a.txt')).toBe(false);
    expect(isVigilTempFile('.a.txt.vigil-tmp-12-0-nothex')).toBe(false);
    expect(isVigilTempFile('a.txt.vigil-tmp-12-0-0123456789ab')).toBe(false);
    expect(isVigilTempFile('.vigil-tmp-dir/a.txt')).toBe(false);
  });
});
