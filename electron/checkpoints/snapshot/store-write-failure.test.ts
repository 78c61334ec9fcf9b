import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { hashObject } from '../../git-store';
import { checkpointInChild as checkpointInProcess, type ChildCheckpoint } from '../test-support/checkpoint-in-child';

/** The child's file size limit: far above anything but the big file's object (random bytes do not compress). */
const fileSizeLimit = 512 * 1024;
const mebibyte = 1024 * 1024;

/** One way a checkpoint's store write fails: where, with how many files, and under which file size limit. */
interface FailureCase {
  readonly where: string;
  readonly smallFiles: number;
  readonly workerThreshold: number;
  readonly bigBytes: number;
  /** The file size limit when not `fileSizeLimit`. */
  readonly limit?: number;
}

/** Runs one checkpoint of `dir` in a child process, under the file size limit when `isLimited`: its outcome alone. */
async function checkpointInChild(
  root: string,
  dir: string,
  workerThreshold: number,
  isLimited: boolean,
  limit = fileSizeLimit,
): Promise<Omit<ChildCheckpoint, 'synced'>> {
  const { synced: _synced, ...outcome } = await checkpointInProcess(
    root,
    dir,
    workerThreshold,
    isLimited ? limit : undefined,
  );
  return outcome;
}

/** What git's own CLI says of the store. */
function git(store: string, ...args: string[]): string {
  return execFileSync('git', ['--git-dir', store, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** Every ref of the store and what it points at. */
function refsOf(store: string): string {
  return git(store, 'for-each-ref', '--format=%(refname) %(objectname)');
}

/** Every temp file a writer left under `objects/` (loose objects' and packs'). */
function tempFilesIn(objectsDir: string): string[] {
  return readdirSync(objectsDir, { recursive: true, encoding: 'utf8' }).filter((name) =>
    /(^|\/)tmp_(obj|pack|idx)_/.test(name),
  );
}

describe('a checkpoint whose store cannot be written', () => {
  let base: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-store-write-'));
  });
  afterEach(async () => {
    await remove();
  });

  // Before the fix each of these checkpoints was created without the big file (skipped as "unreadable").
  it.each<FailureCase>([
    { where: 'a hashing worker, loose objects', smallFiles: 2, workerThreshold: 2, bigBytes: 4 * fileSizeLimit },
    { where: 'a hashing worker, a pack', smallFiles: 600, workerThreshold: 2, bigBytes: 4 * fileSizeLimit },
    { where: 'the main thread, loose objects', smallFiles: 2, workerThreshold: 1_000_000, bigBytes: 4 * fileSizeLimit },
    // Below a pack's 1 MiB write chunk: nothing is written before the pack's finish, which fails.
    { where: "a hashing worker, a pack's finish", smallFiles: 600, workerThreshold: 2, bigBytes: 1.4 * fileSizeLimit },
    {
      where: "the main thread, a pack's finish",
      smallFiles: 600,
      workerThreshold: 1_000_000,
      bigBytes: 1.4 * fileSizeLimit,
    },
    // A pack past the 4 MiB it keeps in memory, with the limit inside its last 1 MiB chunk: that chunk's write is
    // short (no error), and before the fix the checksum's read-back failed as a bare "pack shorter than written".
    ...[2, 1_000_000].map((workerThreshold) => ({
      where: `${workerThreshold === 2 ? 'a hashing worker' : 'the main thread'}, a short pack write`,
      smallFiles: 600,
      workerThreshold,
      bigBytes: 5.5 * mebibyte,
      limit: 5.25 * mebibyte,
    })),
  ])(
    'fails when $where cannot be written, moves no ref, leaves no temp file, and a retry stores the file',
    async ({ smallFiles, workerThreshold, bigBytes, limit }) => {
      const root = path.join(base, 'home', 'checkpoints');
      const store = path.join(root, 'store');
      const dir = path.join(base, 'work');
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'first.txt'), 'checkpointed first\n');
      expect(await checkpointInChild(root, dir, workerThreshold, false)).toEqual({ kind: 'created' });
      const refsBefore = refsOf(store);
      expect(refsBefore).not.toBe('');

      for (let index = 0; index < smallFiles; index += 1)
        writeFileSync(path.join(dir, `small-${index}.txt`), `small ${index}\n`);
      const big = randomBytes(bigBytes);
      writeFileSync(path.join(dir, 'big.data'), big);
      const failed = await checkpointInChild(root, dir, workerThreshold, true, limit);
      expect(failed).toEqual({
        kind: 'failed',
        code: 'io_error',
        message:
          `The checkpoint store at ${store} could not be written (EFBIG: file too large); ` +
          'nothing was checkpointed: an object is bigger than the file size limit (ulimit -f); raise the limit and try again.',
      });
      expect(refsOf(store)).toBe(refsBefore);
      expect(tempFilesIn(path.join(store, 'objects'))).toEqual([]);

      expect(await checkpointInChild(root, dir, workerThreshold, false)).toEqual({ kind: 'created' });
      const [ref, head] = refsOf(store).trim().split(' ');
      expect(refsBefore).toBe(`${ref} ${git(store, 'rev-parse', `${head}^`)}`);
      const tree = git(store, 'ls-tree', '-r', head ?? '');
      expect(tree).toContain(`blob ${hashObject('blob', big)}\tbig.data`);
      expect(tree).toContain(`small-${smallFiles - 1}.txt`);
      git(store, 'fsck', '--no-dangling');
    },
  );
  // Before the fix this failed too, as "Could not use <the temp file>: the system reported EFBIG".
  it("fails the same way when a tree's object cannot be written", async () => {
    const root = path.join(base, 'home', 'checkpoints');
    const store = path.join(root, 'store');
    const dir = path.join(base, 'work');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'first.txt'), 'checkpointed first\n');
    expect(await checkpointInChild(root, dir, 1_000_000, false)).toEqual({ kind: 'created' });
    const refsBefore = refsOf(store);
    // Long random names: the folder's tree object, not any file's, is bigger than the limit once compressed.
    const names = Array.from({ length: 6000 }, () => randomBytes(125).toString('hex'));
    for (const name of names) writeFileSync(path.join(dir, name), 'x\n');
    const failed = await checkpointInChild(root, dir, 1_000_000, true);
    expect(failed.message).toMatch(/^The checkpoint store at .* could not be written \(EFBIG: file too large\)/);
    expect(failed).toMatchObject({ kind: 'failed', code: 'io_error' });
    expect(refsOf(store)).toBe(refsBefore);
    expect(tempFilesIn(path.join(store, 'objects'))).toEqual([]);
    expect(await checkpointInChild(root, dir, 1_000_000, false)).toEqual({ kind: 'created' });
    const [, head] = refsOf(store).trim().split(' ');
    expect(
      git(store, 'ls-tree', '--name-only', head ?? '')
        .trim()
        .split('\n'),
    ).toHaveLength(names.length + 1);
    git(store, 'fsck', '--no-dangling');
  }, 120_000);
});
