import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { readSmallFile } from './read-small-file';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-read-small-'));
});
afterEach(async () => {
  await remove();
});

describe('readSmallFile', () => {
  it('reads what readFile reads, at every size around its first read and past it, a character split across reads included', async () => {
    // 'é' is two bytes: at an odd length one straddles the 4,096-byte edge of the first read.
    for (const length of [0, 1, 40, 4095, 4096, 4097, 8191, 8192, 12_289, 70_001]) {
      const file = path.join(dir, `f${length}`);
      const text = 'é'.repeat(Math.floor(length / 2)) + 'x'.repeat(length % 2);
      await writeFile(file, text);
      expect(await readSmallFile(file)).toBe(await readFile(file, 'utf8'));
    }
  });

  it('fails as readFile does where there is no file, or a folder', async () => {
    await expect(readSmallFile(path.join(dir, 'absent'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readSmallFile(dir)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
