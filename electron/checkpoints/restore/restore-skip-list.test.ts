import { chmodSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { maxSkippedTrailers } from '../timeline/commit-message';
import { restoreServiceFor } from './restore-service';
import { runGit, writeFiles } from '../test-support/restore-fixtures';

/** A checkpoint that skipped more files than its trailers list still never lets a restore delete one of them. */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let checkpointsRoot: string;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-skip-list-'));
  dir = path.join(root, 'project');
  checkpointsRoot = path.join(root, 'home', 'checkpoints');
});
afterEach(async () => {
  await remove();
});

const cap = 1024;
const oversize = 'o'.repeat(cap + 1);

/** 250 oversize files, then `zz-late.txt` (oversize too, sorting after all of them), and one small file. */
function layDown(): void {
  const big = Object.fromEntries(
    Array.from({ length: 250 }, (_, index) => [`big/f${String(index).padStart(3, '0')}.txt`, oversize]),
  );
  writeFiles(dir, { ...big, 'zz-late.txt': oversize, 'a.txt': 'checkpoint a\n' });
}

describe('a restore of a checkpoint with more than 200 skipped paths', () => {
  it('reads the complete skip list, so a file skipped at checkpoint time and stored now is never deleted', async () => {
    const engine = new CheckpointService({ root: checkpointsRoot, logger: silentLogger, maxFileBytes: cap });
    try {
      layDown();
      const taken = await engine.checkpoint(dir, { reason: 'before write_file' });
      if (taken.kind !== 'created') throw new Error('no checkpoint');
      const { id, skipped } = taken.checkpoint;
      // The trailers stop at the cap: zz-late.txt is not among them.
      expect(skipped).toHaveLength(maxSkippedTrailers + 1);
      expect(skipped.some((item) => item.path === 'zz-late.txt')).toBe(false);
      const listOid = taken.checkpoint.skippedList ?? '';
      expect(runGit(['--git-dir', engine.gitdir, 'cat-file', '-p', listOid])).toContain('oversize zz-late.txt');

      // Since: zz-late.txt shrank (so it is stored now), new.txt was created, a.txt edited.
      writeFiles(dir, { 'zz-late.txt': 'small now\n', 'new.txt': 'created after\n', 'a.txt': 'edited a\n' });
      const restore = restoreServiceFor(engine, checkpointsRoot, silentLogger);
      const plan = await restore.plan(dir, id);
      const actions = Object.fromEntries(plan.entries.map((entry) => [entry.path, entry.action]));
      expect(actions).toEqual({ 'a.txt': 'restore', 'new.txt': 'delete', 'zz-late.txt': 'skip' });
      expect(plan.entries.find((entry) => entry.path === 'zz-late.txt')?.reason).toBe('not-in-checkpoint');
      const result = await restore.restore(dir, id);
      expect(result.counts.failed + result.counts.conflict).toBe(0);
      expect(readFileSync(path.join(dir, 'zz-late.txt'), 'utf8')).toBe('small now\n');
      expect(existsSync(path.join(dir, 'new.txt'))).toBe(false);
      expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('checkpoint a\n');
      // Garbage collection keeps the list as long as its checkpoint.
      await engine.prune();
      runGit(['--git-dir', engine.gitdir, 'cat-file', '-e', listOid]);
      runGit(['--git-dir', engine.gitdir, 'fsck', '--full', '--strict', '--no-dangling']);
    } finally {
      await engine.dispose();
    }
  });

  it('never deletes a file it cannot rule out when the complete list is gone (say, a git gc by hand dropped it)', async () => {
    const engine = new CheckpointService({ root: checkpointsRoot, logger: silentLogger, maxFileBytes: cap });
    layDown();
    const taken = await engine.checkpoint(dir, { reason: 'before write_file' }).finally(() => engine.dispose());
    if (taken.kind !== 'created') throw new Error('no checkpoint');
    const { id, skippedList: listOid = '' } = taken.checkpoint;
    const loose = path.join(checkpointsRoot, 'store', 'objects', listOid.slice(0, 2), listOid.slice(2));
    chmodSync(loose, 0o644);
    rmSync(loose);
    writeFiles(dir, { 'new.txt': 'created after\n', 'a.txt': 'edited a\n' });
    const again = new CheckpointService({ root: checkpointsRoot, logger: silentLogger, maxFileBytes: cap });
    try {
      const plan = await restoreServiceFor(again, checkpointsRoot, silentLogger).plan(dir, id);
      expect(plan.counts.delete).toBe(0);
      expect(plan.entries.find((entry) => entry.path === 'new.txt')).toMatchObject({
        action: 'skip',
        reason: 'not-in-checkpoint',
      });
      expect(plan.entries.find((entry) => entry.path === 'a.txt')?.action).toBe('restore');
    } finally {
      await again.dispose();
    }
  });
});
