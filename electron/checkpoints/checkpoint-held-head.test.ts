import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import type { CheckpointService } from './checkpoint-service';
import { dirHash } from '../git-store/store-layout';
import { fsck, git, testService, writeTree } from './test-support/store-fixtures';

/**
 * A checkpoint reads its timeline's head once, at the start of its hold of the store lock, and
 * moves the ref without reading it again (issue 31): only a holder of the lock moves a ref, so what
 * guards the move is the check that the hold was never lost. These cases take the lock from the
 * checkpoint the way another process that judged this one dead would, move the ref as that process
 * would, and check that nothing of the checkpoint lands.
 */
describe('a checkpoint whose store lock was taken over', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let root: string;
  let service: CheckpointService;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-held-head-'));
    dir = path.join(base, 'work');
    mkdirSync(dir);
    writeTree(dir, { 'keep.txt': 'unchanging\n', 'n.txt': 'version 0\n' });
    root = path.join(base, 'home/checkpoints');
    service = testService(root);
  });
  afterEach(async () => {
    await service.dispose();
    await remove();
  });

  const refFile = (): string => path.join(service.gitdir, 'refs/vigil', dirHash(dir));
  const lockFile = (): string => path.join(root, 'store.lock');

  /** Two checkpoints; the ref then points at the second. */
  async function twoCheckpoints(): Promise<{ first: string; second: string }> {
    const first = await service.checkpoint(dir, { reason: 'before write_file' });
    writeFileSync(path.join(dir, 'n.txt'), 'version 1\n');
    const second = await service.checkpoint(dir, { reason: 'before write_file' });
    if (first.kind !== 'created' || second.kind !== 'created') throw new Error('expected two checkpoints');
    return { first: first.checkpoint.id, second: second.checkpoint.id };
  }

  it.each([
    ['still holds the lock it took', true],
    ['has released the lock already', false],
  ])(
    'fails with conflict and leaves the ref where the new holder put it, when that holder %s',
    async (_label, isNewHolderHolding) => {
      const { first } = await twoCheckpoints();
      writeFileSync(path.join(dir, 'n.txt'), 'version 2\n');
      const error = await service
        .withStoreLock(async () => {
          // The new holder replaces the lock file with its own and moves the timeline back (as a repair would).
          writeFileSync(
            lockFile(),
            JSON.stringify({
              pid: 1,
              hostname: 'elsewhere',
              token: 'someone-else',
              acquiredAt: new Date().toISOString(),
            }),
          );
          writeFileSync(refFile(), `${first}\n`);
          if (!isNewHolderHolding) rmSync(lockFile());
          return service.checkpoint(dir, { reason: 'before write_file' });
        })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'conflict' });
      expect(readFileSync(refFile(), 'utf8').trim()).toBe(first);
      expect(git(['--git-dir', service.gitdir, 'rev-list', '--count', `refs/vigil/${dirHash(dir)}`])).toBe('1');
      expect(fsck(service.gitdir)).toBe('');
      if (existsSync(lockFile())) rmSync(lockFile());
    },
  );

  it('moves the ref from the head it read when the hold was kept, and git sees the whole timeline', async () => {
    const { second } = await twoCheckpoints();
    writeFileSync(path.join(dir, 'n.txt'), 'version 2\n');
    const third = await service.checkpoint(dir, { reason: 'before write_file' });
    if (third.kind !== 'created') throw new Error('expected a checkpoint');
    expect(git(['--git-dir', service.gitdir, 'rev-parse', `${third.checkpoint.id}^`])).toBe(second);
    expect(readFileSync(refFile(), 'utf8').trim()).toBe(third.checkpoint.id);
    expect(fsck(service.gitdir)).toBe('');
  });
});
