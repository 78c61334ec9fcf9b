import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { settleBeside, swapInFifo } from '../test-support/fifo';
import { makeTempDir } from '../test-support/temp-dir';
import { openMemoryFile, readMemoryFile } from './memory-file';

/** A memory file is the agent's to write: a FIFO put there is refused as not a regular file, never waited on. */

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-memory-fifo-'));
});
afterEach(async () => {
  await remove();
});

it.skipIf(process.platform === 'win32')('refuses a FIFO memory file at once, for a read and for a change', async () => {
  const fifo = path.join(dir, 'MEMORY.md');
  swapInFifo(fifo);
  const refused = { error: { code: 'wrong_kind', details: { path: fifo } } };
  expect(await settleBeside(readMemoryFile(fifo), fifo)).toMatchObject(refused);
  expect(await settleBeside(openMemoryFile(fifo), fifo)).toMatchObject(refused);
});
