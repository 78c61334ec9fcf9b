import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import type { CheckpointService } from './checkpoint-service';
import type { CheckpointEntry } from './checkpoint-types';
import { dirHash } from '../git-store/store-layout';
import { fsck, git, testService, writeTree } from './test-support/store-fixtures';

describe('checkpoint timelines, retention and garbage collection', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let service: CheckpointService;

  /** Takes `count` checkpoints, each after changing `n.txt`. */
  async function takeCheckpoints(target: string, count: number, from = 0): Promise<CheckpointEntry[]> {
    const taken: CheckpointEntry[] = [];
    for (let index = from; index < from + count; index += 1) {
      writeFileSync(path.join(target, 'n.txt'), `version ${index}\n`);
      const outcome = await service.checkpoint(target, { reason: `before write_file`, attribution: { turn: index } });
      if (outcome.kind !== 'created') throw new Error('expected a checkpoint');
      taken.push(outcome.checkpoint);
    }
    return taken;
  }

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-timeline-'));
    dir = path.join(base, 'work');
    mkdirSync(dir);
    writeTree(dir, { 'keep.txt': 'unchanging\n' });
  });
  afterEach(async () => {
    await service.dispose();
    await remove();
  });

  it('lists newest first with paging, counts, and resolves numbers and ids with clear errors', async () => {
    service = testService(path.join(base, 'home/checkpoints'));
    const taken = await takeCheckpoints(dir, 5);
    const newestFirst = [...taken].reverse().map((entry) => entry.id);
    expect((await service.list(dir)).map((entry) => entry.id)).toEqual(newestFirst);
    expect((await service.list(dir, { offset: 1, limit: 2 })).map((entry) => entry.id)).toEqual(
      newestFirst.slice(1, 3),
    );
    expect(await service.count(dir)).toBe(5);
    expect((await service.list(dir))[0]).toMatchObject({
      attribution: { turn: 4 },
      stats: { files: 1, insertions: 1, deletions: 1 },
    });
    expect((await service.resolve(dir, '1')).id).toBe(newestFirst[0]);
    expect((await service.resolve(dir, '5')).id).toBe(newestFirst[4]);
    expect((await service.resolve(dir, (newestFirst[2] ?? '').slice(0, 10))).id).toBe(newestFirst[2]);
    await expect(service.resolve(dir, '6')).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('use 1–5') as unknown,
    });
    await expect(service.resolve(dir, '0')).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(service.resolve(dir, '-rf')).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(service.resolve(dir, 'xyz123')).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(service.resolve(dir, 'abcdef0123')).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.list(path.join(base, 'never'))).rejects.toMatchObject({ code: 'not_found' });
    const directories = await service.directories();
    expect(directories).toEqual([
      expect.objectContaining({ dir, dirhash: dirHash(dir), head: newestFirst[0], count: 5, exists: true }),
    ]);
  });

  it('keeps max_snapshots per directory by cutting the timeline, and prune deletes what was dropped once its days are up', async () => {
    // No days in the recently dropped area: the next look at the store lets the dropped ones go.
    service = testService(path.join(base, 'home/checkpoints'), { retention: { maxSnapshots: 3, keepDroppedDays: 0 } });
    const taken = await takeCheckpoints(dir, 6);
    const kept = (await service.list(dir)).map((entry) => entry.id);
    expect(kept).toEqual(
      taken
        .slice(3)
        .reverse()
        .map((entry) => entry.id),
    );
    const listed = await service.list(dir);
    expect(listed[2]?.parent).toBeUndefined();
    expect(listed[0]?.parent).toBe(taken[4]?.id);
    const ref = `refs/vigil/${dirHash(dir)}`;
    expect(git(['--git-dir', service.gitdir, 'rev-list', '--count', ref])).toBe('3');
    expect(git(['--git-dir', service.gitdir, 'log', '--format=%H', ref]).split('\n')).toEqual(kept);
    expect(fsck(service.gitdir)).toBe('');
    // Cut, not gone: the three oldest wait in the dropped area until the next look at the store.
    expect((await service.dropped(dir)).entries.map((entry) => entry.id)).toEqual(
      taken
        .slice(0, 3)
        .reverse()
        .map((entry) => entry.id),
    );
    const report = await service.prune();
    expect(report.droppedObjects).toBeGreaterThanOrEqual(6);
    expect(report.bytesAfter).toBeLessThan(report.bytesBefore);
    for (const dropped of taken.slice(0, 3)) {
      expect(() => git(['--git-dir', service.gitdir, 'cat-file', '-e', dropped.id])).toThrow();
    }
    expect(fsck(service.gitdir)).toBe('');
    expect(git(['--git-dir', service.gitdir, 'count-objects', '-v'])).toMatch(/^count: 0$/m);
    // Kept ids did not change, and the timeline goes on from them.
    expect((await service.list(dir)).map((entry) => entry.id)).toEqual(kept);
    const more = await takeCheckpoints(dir, 2, 6);
    expect((await service.list(dir)).map((entry) => entry.id)).toEqual([more[1]?.id, more[0]?.id, kept[0]]);
    expect(fsck(service.gitdir)).toBe('');
  });

  it('deletes nothing when the store lock was taken from it: prune asks the lock before every destructive step', async () => {
    const root = path.join(base, 'home/checkpoints');
    service = testService(root, { retention: { maxSnapshots: 2 } });
    const taken = await takeCheckpoints(dir, 4);
    const objectsBefore = git(['--git-dir', service.gitdir, 'count-objects', '-v']);
    const shallowBefore = existsSync(path.join(service.gitdir, 'shallow'))
      ? readFileSync(path.join(service.gitdir, 'shallow'), 'utf8')
      : '';
    const error = await service
      .withStoreLock(async () => {
        // Another process takes the lock over (as if this one had been judged dead) while it prunes.
        writeFileSync(
          path.join(root, 'store.lock'),
          JSON.stringify({
            pid: 1,
            hostname: 'elsewhere',
            token: 'someone-else',
            acquiredAt: new Date().toISOString(),
          }),
        );
        return service.prune();
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'conflict' });
    expect(git(['--git-dir', service.gitdir, 'count-objects', '-v'])).toBe(objectsBefore);
    expect(
      existsSync(path.join(service.gitdir, 'shallow'))
        ? readFileSync(path.join(service.gitdir, 'shallow'), 'utf8')
        : '',
    ).toBe(shallowBefore);
    for (const entry of taken) git(['--git-dir', service.gitdir, 'cat-file', '-e', entry.id]);
    rmSync(path.join(root, 'store.lock'));
  });

  it('enforces the size cap by dropping the oldest checkpoints across directories, never the newest of one', async () => {
    service = testService(path.join(base, 'home/checkpoints'), { retention: { maxTotalBytes: 1 } });
    const other = path.join(base, 'other');
    mkdirSync(other);
    await takeCheckpoints(dir, 4);
    await takeCheckpoints(other, 3);
    const report = await service.prune();
    expect(report.droppedCheckpoints).toBe(5);
    expect(await service.count(dir)).toBe(1);
    expect(await service.count(other)).toBe(1);
    expect(fsck(service.gitdir)).toBe('');
  });

  it('serializes concurrent checkpoints of several directories without losing one', async () => {
    service = testService(path.join(base, 'home/checkpoints'));
    const second = testService(path.join(base, 'home/checkpoints'));
    const dirs = ['a', 'b', 'c'].map((name) => {
      const target = path.join(base, name);
      mkdirSync(target);
      return target;
    });
    try {
      await Promise.all(
        dirs.flatMap((target, which) =>
          [0, 1, 2, 3].map(async (index) => {
            writeFileSync(path.join(target, `f${index}.txt`), `${which}-${index}\n`);
            await (index % 2 === 0 ? service : second).checkpoint(target, { reason: 'before write_file' });
          }),
        ),
      );
      for (const target of dirs) {
        const entries = await service.list(target);
        // Every file written is in the newest checkpoint, and the timeline is one chain.
        expect(git(['--git-dir', service.gitdir, 'ls-tree', '--name-only', entries[0]?.id ?? '']).split('\n')).toEqual([
          'f0.txt',
          'f1.txt',
          'f2.txt',
          'f3.txt',
        ]);
        expect(Number(git(['--git-dir', service.gitdir, 'rev-list', '--count', `refs/vigil/${dirHash(target)}`]))).toBe(
          entries.length,
        );
      }
      expect(fsck(service.gitdir)).toBe('');
    } finally {
      await second.dispose();
    }
  });

  it('reports the store in status: sizes, counts, and what each directory skipped', async () => {
    service = testService(path.join(base, 'home/checkpoints'));
    writeTree(dir, { 'node_modules/x.js': 'x', '.env': 'K=V' });
    await takeCheckpoints(dir, 2);
    const status = await service.status();
    expect(status).toMatchObject({
      gitdir: service.gitdir,
      retention: { maxSnapshots: 50 },
      maxFileBytes: 50 * 1024 * 1024,
    });
    expect(status.bytes).toBeGreaterThan(0);
    expect(status.looseObjects).toBeGreaterThan(0);
    expect(status.directories).toEqual([
      expect.objectContaining({
        dir,
        count: 2,
        skipped: [
          { path: '.env', reason: 'excluded' },
          { path: 'node_modules/', reason: 'excluded' },
        ],
      }),
    ]);
    await expect(service.status(path.join(base, 'never'))).rejects.toMatchObject({ code: 'not_found' });
  });
});
