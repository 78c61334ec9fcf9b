import { execFileSync } from 'node:child_process';
import { lstatSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settleBeside, swapInFifo } from '../../test-support/fifo';
import { makeTempDir } from '../../test-support/temp-dir';
import { readDiskVersion, type KnownOid } from './disk-version';

/**
 * Restore reads the version on disk (its undo point, its conflict checks) from one lstat and then
 * the content; `known` is asked in between, so a `known` that swaps the file there is the seam.
 * Whatever an agent swapped in is looked at again, never waited on (a FIFO) or followed (a symlink).
 */

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-disk-version-'));
});
afterEach(async () => {
  await remove();
});

/** Vouches for nothing, and runs `swap` the first time it is asked (after the first lstat). */
function swappingOnce(swap: () => void): KnownOid {
  let hasSwapped = false;
  return () => {
    if (!hasSwapped) {
      hasSwapped = true;
      swap();
    }
    return undefined;
  };
}

describe('readDiskVersion when the file is swapped after its lstat', () => {
  it.skipIf(process.platform === 'win32')('finds a FIFO swapped in as no file, at once', async () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'first\n');
    const outcome = await settleBeside(
      readDiskVersion(
        file,
        swappingOnce(() => swapInFifo(file)),
        { within: dir },
      ),
      file,
    );
    expect(outcome).toMatchObject({ value: { file: undefined, identity: { ino: String(lstatSync(file).ino) } } });
  });

  it('hashes a symlink swapped in as the link, never the file it points at', async () => {
    writeFileSync(path.join(dir, 'secret.txt'), 'outside\n');
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'first\n');
    const found = await readDiskVersion(
      file,
      swappingOnce(() => {
        rmSync(file);
        symlinkSync('secret.txt', file);
      }),
      { within: dir },
    );
    const linkId = execFileSync('git', ['hash-object', '--stdin'], { input: 'secret.txt' }).toString().trim();
    expect(found.file).toEqual({ mode: '120000', oid: linkId });
  });

  it('keeps the bytes it hashed when asked, so a caller need not read the file again', async () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'first\n');
    const found = await readDiskVersion(file, undefined, { keepContent: true, within: dir });
    expect(found.content?.toString()).toBe('first\n');
    expect((await readDiskVersion(file, undefined, { within: dir })).content).toBeUndefined();
  });
});
