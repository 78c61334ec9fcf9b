import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settleBeside, swapInFifo } from '../../test-support/fifo';
import { makeTempDir } from '../../test-support/temp-dir';
import type { KnownHashes } from '../snapshot/known-hashes';
import { createPathScope } from './diff-path-scope';
import { readLiveTree } from './diff-live-tree';

/**
 * The live tree (what diff and a file's history compare with) reads each file after its lstat; an
 * agent may swap what is at the name in between. The engine's known hashes are asked between the
 * two, so a `known` that swaps the file there is the seam: no fs mock.
 */

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-live-hash-'));
});
afterEach(async () => {
  await remove();
});

const rules = { maxFileBytes: 1024, ignoredFolders: [] as string[] };

/** Known hashes that vouch for nothing and run `swap` once, after the lstat of `relativePath` and before its read. */
function swappingOnce(relativePath: string, swap: () => void): KnownHashes {
  let hasSwapped = false;
  return {
    oidOf(asked) {
      if (asked === relativePath && !hasSwapped) {
        hasSwapped = true;
        swap();
      }
      return undefined;
    },
  };
}

/** Git's blob id of `content`, by git's own CLI. */
function gitBlobId(content: string): string {
  return execFileSync('git', ['hash-object', '--stdin'], { input: content }).toString().trim();
}

describe('the live tree when a file is swapped after its lstat', () => {
  it.skipIf(process.platform === 'win32')(
    'lists a FIFO swapped in as special at once, never waiting for a writer',
    async () => {
      writeFileSync(path.join(dir, 'a.txt'), 'first\n');
      writeFileSync(path.join(dir, 'b.txt'), 'kept\n');
      const fifo = path.join(dir, 'a.txt');
      const known = swappingOnce('a.txt', () => swapInFifo(fifo));
      const outcome = await settleBeside(readLiveTree(dir, rules, createPathScope([]), known), fifo);
      expect(outcome).toMatchObject({ value: { skipped: [{ path: 'a.txt', reason: 'special' }] } });
    },
  );

  it('lists a folder swapped in as special, as the snapshot does', async () => {
    writeFileSync(path.join(dir, 'a.txt'), 'first\n');
    const known = swappingOnce('a.txt', () => {
      rmSync(path.join(dir, 'a.txt'));
      mkdirSync(path.join(dir, 'a.txt'));
    });
    const live = await readLiveTree(dir, rules, createPathScope([]), known);
    expect(live.skipped).toEqual([{ path: 'a.txt', reason: 'special' }]);
  });

  it('stores a symlink swapped in as the link it is, never the content of what it points at', async () => {
    writeFileSync(path.join(dir, 'secret.txt'), 'outside\n');
    writeFileSync(path.join(dir, 'a.txt'), 'first\n');
    const known = swappingOnce('a.txt', () => {
      rmSync(path.join(dir, 'a.txt'));
      symlinkSync('secret.txt', path.join(dir, 'a.txt'));
    });
    const live = await readLiveTree(dir, rules, createPathScope(['a.txt']), known);
    const entries = live.root === undefined ? [] : live.trees.get(live.root);
    expect(entries).toEqual([{ mode: '120000', name: 'a.txt', oid: gitBlobId('secret.txt'), type: 'blob' }]);
  });

  it('lists a file that grew past the cap after its lstat as oversize, unread', async () => {
    writeFileSync(path.join(dir, 'a.txt'), 'small\n');
    const known = swappingOnce('a.txt', () => writeFileSync(path.join(dir, 'a.txt'), 'x'.repeat(4096)));
    const live = await readLiveTree(dir, rules, createPathScope([]), known);
    expect(live.skipped).toEqual([{ path: 'a.txt', reason: 'oversize' }]);
  });
});
