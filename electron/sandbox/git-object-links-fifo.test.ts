import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { privateObjects } from './git-object-links';

/**
 * The private copies of git's linked objects are made outside the sandbox while commands may run in
 * it: a command that puts a FIFO where a linked object was must not hold the core's open of it
 * until some writer comes (a thread of node's pool each, for ever).
 */
let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-object-fifo-'));
});
afterEach(async () => {
  await remove();
});

it.skipIf(process.platform === 'win32')('leaves a FIFO put at a linked object’s name alone, at once', async () => {
  const objects = path.join(dir, '.git', 'objects');
  const fan = path.join(objects, 'ab');
  mkdirSync(fan, { recursive: true });
  const name = path.join(fan, 'cdef0123456789abcdef0123456789abcdef01');
  execFileSync('mkfifo', [name]);
  // What the listing found there before the command swapped it: a file with two names.
  const outcome = await Promise.race([
    privateObjects([objects], [{ key: '1:2', count: 2, path: name }]),
    sleep(5_000).then(() => 'still waiting in open'),
  ]);
  // An open that waits for a writer (without O_NONBLOCK) is let go, so the test's process can end.
  if (typeof outcome === 'string') writeFileSync(name, '');
  expect(outcome).toEqual({ copied: [], notes: [] });
});
