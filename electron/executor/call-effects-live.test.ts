import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { settleBeside, swapInFifo } from '../test-support/fifo';
import { makeTempDir } from '../test-support/temp-dir';
import { readCountable } from './call-effects';

/**
 * A call's effects count the lines of the files it changed, read from a workspace the agent
 * controls: only a regular file is read (no symlink followed, no FIFO waited on).
 */

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-call-effects-'));
});
afterEach(async () => {
  await remove();
});

it('reads a regular file, and tells a missing one', async () => {
  writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\n');
  expect(Buffer.from((await readCountable(path.join(dir, 'a.txt'))) as Uint8Array).toString()).toBe('one\ntwo\n');
  expect(await readCountable(path.join(dir, 'none.txt'))).toBe('missing');
});

it.skipIf(process.platform === 'win32')('leaves a FIFO and a folder uncounted, at once', async () => {
  const fifo = path.join(dir, 'fifo');
  swapInFifo(fifo);
  expect(await settleBeside(readCountable(fifo), fifo)).toEqual({ value: 'uncounted' });
  mkdirSync(path.join(dir, 'folder'));
  expect(await readCountable(path.join(dir, 'folder'))).toBe('uncounted');
});

it('leaves a symlink uncounted, never reading what it points at', async () => {
  writeFileSync(path.join(dir, 'secret.txt'), 'outside\n');
  symlinkSync(path.join(dir, 'secret.txt'), path.join(dir, 'link'));
  expect(await readCountable(path.join(dir, 'link'))).toBe('uncounted');
});
