import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { settleBeside, swapInFifo } from '../../test-support/fifo';
import { makeTempDir } from '../../test-support/temp-dir';
import type { ExecutionSession } from '../tool-adapter';
import { preparePatch } from './prepare';
import { testSession } from '../test-support/test-session';

/**
 * What a patch would make of its file (shown in an approval or a collision) is read from the disk
 * after prepare resolved the target: an agent may swap the file meanwhile. A FIFO is never waited
 * on and a symlink never followed: there is then no proposal to show.
 */

let base: string;
let remove: () => Promise<void>;
let workspace: string;
let session: ExecutionSession;
beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-patch-live-'));
  workspace = path.join(base, 'ws');
  mkdirSync(workspace);
  writeFileSync(path.join(workspace, 'p.txt'), 'value: a\n');
  session = testSession(workspace, path.join(base, 'home'));
});
afterEach(async () => {
  await remove();
});

const args = { path: 'p.txt', old_string: 'value: a', new_string: 'value: b' };

it('proposes the patched text of the file as it is now', async () => {
  const prepared = await preparePatch(args, session);
  expect(await prepared.proposed?.()).toBe('value: b\n');
});

it.skipIf(process.platform === 'win32')('proposes nothing for a FIFO swapped in after prepare, at once', async () => {
  const prepared = await preparePatch(args, session);
  const fifo = path.join(workspace, 'p.txt');
  swapInFifo(fifo);
  expect(await settleBeside(Promise.resolve(prepared.proposed?.()), fifo)).toEqual({ value: undefined });
});

it('proposes nothing for a symlink swapped in after prepare, never patching what it points at', async () => {
  const prepared = await preparePatch(args, session);
  const outside = path.join(base, 'outside.txt');
  writeFileSync(outside, 'value: a\nOUTSIDE SECRET\n');
  rmSync(path.join(workspace, 'p.txt'));
  symlinkSync(outside, path.join(workspace, 'p.txt'));
  expect(await prepared.proposed?.()).toBeUndefined();
});
