import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { readForHash, type FileRead, type ReadStamp } from './async-file-reader';
import { readBlocking } from './blocking-io';

/**
 * The reader takes the walk's lstat as its first look (no fstat before the read): a file changed or
 * swapped between that lstat and the read is still read as it is, with its own stat, never as the
 * version the lstat saw.
 */

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-file-reader-'));
});
afterEach(async () => {
  await remove();
});

/** The lstat of `file` as the walk keeps it. */
function stampOf(file: string): ReadStamp {
  const stats = lstatSync(file, { bigint: true });
  return { size: Number(stats.size), mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs, ino: stats.ino, isFile: true };
}

/** The main thread's reader and the hashing workers' one: the same rules. */
const readers: ReadonlyArray<
  [string, (file: string, isSymlink: boolean, max: number, listed?: ReadStamp) => Promise<FileRead>]
> = [
  ['asynchronous', readForHash],
  ['blocking (hash workers)', (file, _isSymlink, max, listed) => Promise.resolve(readBlocking(file, max, listed))],
];

describe.each(readers)('reading a file for hashing from the walk’s lstat, %s', (_name, readForHash) => {
  it('reads a file as the lstat found it, stable, with its fstat', async () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'hello\n');
    const read = await readForHash(file, false, 1 << 20, stampOf(file));
    expect(read.kind === 'read' && read.content.toString()).toBe('hello\n');
    expect(read.kind === 'read' && read.isStable).toBe(true);
    expect(read.kind === 'read' && read.stats.ino).toBe(lstatSync(file, { bigint: true }).ino);
  });

  it('reads the new content of a file that grew after the lstat, not the old size of it', async () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'short\n');
    const listed = stampOf(file);
    writeFileSync(file, 'a much longer second version\n');
    const read = await readForHash(file, false, 1 << 20, listed);
    expect(read.kind === 'read' && read.content.toString()).toBe('a much longer second version\n');
    expect(read.kind === 'read' && read.isStable).toBe(true);
    expect(read.kind === 'read' && read.stats.size).toBe(29n);
  });

  it('reads the file swapped in after the lstat (another inode, same size), with that file’s stat', async () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'first\n');
    const listed = stampOf(file);
    const other = path.join(dir, 'other.txt');
    writeFileSync(other, 'other\n');
    renameSync(other, file);
    const read = await readForHash(file, false, 1 << 20, listed);
    expect(read.kind === 'read' && read.content.toString()).toBe('other\n');
    expect(read.kind === 'read' && read.stats.ino).not.toBe(listed.ino);
  });

  it('skips a folder swapped in after the lstat as special, as an fstat before the read would', async () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'first\n');
    const listed = stampOf(file);
    rmSync(file);
    mkdirSync(file);
    expect(await readForHash(file, false, 1 << 20, listed)).toEqual({ kind: 'skipped', reason: 'special' });
  });

  it.skipIf(process.platform === 'win32')(
    'skips a FIFO swapped in after the lstat as special, without waiting for a writer to open it',
    async () => {
      const file = path.join(dir, 'a.txt');
      writeFileSync(file, 'first\n');
      const listed = stampOf(file);
      rmSync(file);
      execFileSync('mkfifo', [file]);
      const outcome = await Promise.race([
        readForHash(file, false, 1 << 20, listed),
        sleep(5_000).then(() => 'still waiting in open'),
      ]);
      // An open that waits for a writer (the old flags) is let go, so the test's process can end.
      if (typeof outcome === 'string') writeFileSync(file, '');
      expect(outcome).toEqual({ kind: 'skipped', reason: 'special' });
    },
  );

  it('skips a file that grew past the size cap after the lstat', async () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'small\n');
    const listed = stampOf(file);
    writeFileSync(file, 'x'.repeat(4096));
    expect(await readForHash(file, false, 1024, listed)).toEqual({ kind: 'skipped', reason: 'oversize' });
  });
});
