import { lstatSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settleBeside, swapInFifo } from '../test-support/fifo';
import { makeTempDir } from '../test-support/temp-dir';
import { readLiveFile } from './read-live-file';

/** Reading a file an agent controls: whatever it swapped in after the caller's lstat is told, never followed or waited on. */

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-live-read-'));
});
afterEach(async () => {
  await remove();
});

describe('readLiveFile', () => {
  it('reads a regular file whole, with its fstat', async () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'hello\n'.repeat(30_000));
    const read = await readLiveFile(file, { expected: lstatSync(file, { bigint: true }) });
    expect(read.kind === 'read' && read.content.toString()).toBe('hello\n'.repeat(30_000));
    expect(read.kind === 'read' && read.stats.size).toBe(180_000n);
  });

  it.skipIf(process.platform === 'win32')(
    'tells a FIFO at the name as special, without waiting for a writer',
    async () => {
      const file = path.join(dir, 'a.txt');
      writeFileSync(file, 'first\n');
      const listed = lstatSync(file, { bigint: true });
      swapInFifo(file);
      const outcome = await settleBeside(readLiveFile(file, { expected: listed }), file);
      expect(outcome).toMatchObject({ value: { kind: 'special' } });
      expect(
        typeof outcome === 'object' &&
          'value' in outcome &&
          outcome.value.kind === 'special' &&
          outcome.value.stats.isFIFO(),
      ).toBe(true);
    },
  );

  it('tells a folder at the name as special', async () => {
    const file = path.join(dir, 'a');
    mkdirSync(file);
    const read = await readLiveFile(file);
    expect(read.kind === 'special' && read.stats.isDirectory()).toBe(true);
  });

  it('does not follow a symlink swapped in at the name: changed', async () => {
    const secret = path.join(dir, 'outside.txt');
    writeFileSync(secret, 'not yours\n');
    const file = path.join(dir, 'a.txt');
    symlinkSync(secret, file);
    expect(await readLiveFile(file)).toEqual({ kind: 'changed' });
  });

  it('follows a symlink when asked (files git itself follows), still never waiting on a FIFO behind it', async () => {
    const target = path.join(dir, 'target.txt');
    writeFileSync(target, 'patterns\n');
    symlinkSync(target, path.join(dir, 'link'));
    const read = await readLiveFile(path.join(dir, 'link'), { followsSymlink: true });
    expect(read.kind === 'read' && read.content.toString()).toBe('patterns\n');
    swapInFifo(target);
    const outcome = await settleBeside(readLiveFile(path.join(dir, 'link'), { followsSymlink: true }), target);
    expect(outcome).toMatchObject({ value: { kind: 'special' } });
  });

  it('tells another file put at the name after the lstat as changed', async () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'first\n');
    const listed = lstatSync(file, { bigint: true });
    writeFileSync(path.join(dir, 'b.txt'), 'second\n');
    renameSync(path.join(dir, 'b.txt'), file);
    expect(await readLiveFile(file, { expected: listed })).toEqual({ kind: 'changed' });
  });

  it('does not read a file past the cap, even one that grew after the lstat', async () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'x'.repeat(4096));
    expect(await readLiveFile(file, { maxBytes: 1024 })).toEqual({ kind: 'oversize', size: 4096n });
    expect(await readLiveFile(file, { maxBytes: 4096 })).toMatchObject({ kind: 'read' });
  });

  it('throws a missing file’s ENOENT as it is', async () => {
    await expect(readLiveFile(path.join(dir, 'none'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
