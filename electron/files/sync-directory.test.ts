import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settleBeside, stillWaiting, swapInFifo } from '../test-support/fifo';
import { makeTempDir } from '../test-support/temp-dir';
import { syncDirectories } from './atomic-write';
import { syncDirectory } from './sync-directory';

/**
 * A folder's fsync opens the folder. The agent owns the workspace, so it can put a FIFO where a folder
 * was just written into; a plain read-only open of that FIFO waits for a writer for ever and holds one
 * of libuv's four pool threads (four of them stall all of the core's file work).
 */

let temp: { dir: string; remove: () => Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir('vigil-sync-dir-');
});
afterEach(async () => {
  await temp.remove();
});

/** The error that names the folder and says it is not one. */
const notAFolder = (folder: string): Record<string, unknown> => ({
  code: 'wrong_kind',
  message: expect.stringContaining(`${folder}: it is not a folder`),
});

describe.skipIf(process.platform === 'win32')('a FIFO put in a folder’s place before its fsync', () => {
  it('fails at once, naming the folder and saying it is not a folder (either link rule)', async () => {
    const folder = path.join(temp.dir, 'src');
    swapInFifo(folder);
    for (const finalLink of ['follow', 'refuse'] as const) {
      const outcome = await settleBeside(syncDirectory(folder, finalLink), folder);
      expect(outcome).not.toBe(stillWaiting);
      expect(outcome).toMatchObject({ error: notAFolder(folder) });
    }
  });

  it('fails the write’s folder fsync the same way (what an atomic write or a restore reports)', async () => {
    const folder = path.join(temp.dir, 'src');
    const other = path.join(temp.dir, 'lib');
    await mkdir(other);
    swapInFifo(folder);
    const outcome = await settleBeside(syncDirectories([other, folder]), folder);
    expect(outcome).not.toBe(stillWaiting);
    expect(outcome).toMatchObject({ error: notAFolder(folder) });
  });
});

describe.skipIf(process.platform === 'win32')('a symbolic link at the folder’s path', () => {
  it('is followed for Vigil’s own folders and refused for a written folder’s real path', async () => {
    const real = path.join(temp.dir, 'real');
    const link = path.join(temp.dir, 'link');
    await mkdir(real);
    await symlink(real, link);
    await expect(syncDirectory(link)).resolves.toBeUndefined();
    await expect(syncDirectory(link, 'refuse')).rejects.toMatchObject(notAFolder(link));
    await expect(syncDirectories([link])).rejects.toMatchObject(notAFolder(link));
  });

  it('to a FIFO fails at once when followed', async () => {
    const fifo = path.join(temp.dir, 'fifo');
    const link = path.join(temp.dir, 'link');
    swapInFifo(fifo);
    await symlink(fifo, link);
    const outcome = await settleBeside(syncDirectory(link), fifo);
    expect(outcome).toMatchObject({ error: notAFolder(link) });
  });

  it('still syncs a real folder', async () => {
    await expect(syncDirectory(temp.dir, 'refuse')).resolves.toBeUndefined();
    await expect(syncDirectory(temp.dir)).resolves.toBeUndefined();
  });
});
