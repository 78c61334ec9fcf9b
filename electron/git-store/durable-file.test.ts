import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { writeFileDurably } from './durable-file';

describe('durable file replacement', () => {
  let dir: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir, remove } = await makeTempDir('vigil-durable-'));
  });
  afterEach(async () => {
    await remove();
  });

  it('writes parts one after another, replacing a longer file whole, and leaves no temp file', async () => {
    const target = path.join(dir, 'cache');
    writeFileSync(target, 'x'.repeat(10_000));
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    const parts = [Buffer.from('head\n'), big, new Uint8Array([1, 2, 3]), Buffer.alloc(0), Buffer.from('tail')];
    await writeFileDurably(target, parts, { sync: false });
    expect(readFileSync(target).equals(Buffer.concat(parts))).toBe(true);
    await writeFileDurably(target, [Buffer.from('short')]);
    expect(readFileSync(target, 'utf8')).toBe('short');
    expect(readdirSync(dir)).toEqual(['cache']);
  });
});
