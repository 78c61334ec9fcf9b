import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { ObjectStore, RefStore, dirHash } from '../../git-store';
import { Timeline } from '../timeline/timeline';
import type { CheckpointService } from '../checkpoint-service';
import { fsck, git, testService } from '../test-support/store-fixtures';
import { CheckpointCut } from './checkpoint-cut';
import type { Cut } from './cut-reporter';

/**
 * A checkpoint past its folder's limit stages its retention cut while its own objects are made
 * durable (issue 31: the dropped ref's waits for the disk overlap the objects'), and lets go of the
 * dropped checkpoints only once its ref has moved; a cut staged for a ref that did not move is undone.
 */
describe("a checkpoint's retention cut", () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let service: CheckpointService | undefined;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-checkpoint-cut-'));
    dir = path.join(base, 'work');
    mkdirSync(dir);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await service?.dispose();
    await remove();
  });

  const read = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8').trim() : '');

  async function checkpoint(version: number): Promise<string> {
    writeFileSync(path.join(dir, 'n.txt'), `version ${version}\n`);
    const outcome = await service?.checkpoint(dir, { reason: `version ${version}` });
    if (outcome?.kind !== 'created') throw new Error('expected a checkpoint');
    return outcome.checkpoint.id;
  }

  it('makes the dropped ref durable before the ref moves, and replaces the shallow list only after', async () => {
    const events: string[] = [];
    const root = path.join(base, 'home/checkpoints');
    const gitdir = path.join(root, 'store');
    const refFile = path.join(gitdir, 'refs/vigil', dirHash(dir));
    service = testService(root, {
      retention: { maxSnapshots: 2 },
      onSynced: (files) => {
        const what = files.some((file) => file.includes('vigil-dropped'))
          ? 'dropped ref'
          : files.includes(refFile)
            ? 'ref'
            : 'objects';
        events.push(
          `${what} durable (ref ${read(refFile).slice(0, 8)}, shallow ${read(path.join(gitdir, 'shallow'))})`,
        );
      },
    });
    const first = await checkpoint(0);
    const second = await checkpoint(1);
    events.length = 0;
    const third = await checkpoint(2);

    const s = second.slice(0, 8);
    // The objects' and the dropped ref's fsyncs run side by side, in either order, both before the ref moves; the
    // ref's folder fsync runs beside the shallow list's rename, so that one may see the list before or after it.
    expect(events.slice(0, 2).sort()).toEqual([
      `dropped ref durable (ref ${s}, shallow )`,
      `objects durable (ref ${s}, shallow )`,
    ]);
    expect(events.slice(2)).toEqual([
      expect.stringMatching(new RegExp(`^ref durable \\(ref ${third.slice(0, 8)}, shallow (${second})?\\)$`)),
    ]);
    expect(read(path.join(gitdir, 'shallow'))).toBe(second);
    expect(git(['--git-dir', gitdir, 'for-each-ref', '--format=%(objectname)', 'refs/vigil-dropped'])).toBe(first);
    expect((await service.list(dir)).map((entry) => entry.id)).toEqual([third, second]);
    expect(fsck(gitdir)).toBe('');
  });

  it('undoes a staged cut whose ref did not move: no dropped ref, the shallow list and the timeline as they were', async () => {
    const root = path.join(base, 'home/checkpoints');
    const gitdir = path.join(root, 'store');
    service = testService(root, { retention: { maxSnapshots: 1000 } });
    const ids = [await checkpoint(0), await checkpoint(1), await checkpoint(2)];
    const refs = new RefStore(gitdir);
    const store = new ObjectStore(gitdir);
    const reported: Cut[] = [];
    const cut = (): CheckpointCut =>
      new CheckpointCut({
        refs,
        timeline: new Timeline(store),
        dirhash: dirHash(dir),
        maxSnapshots: 2,
        shallow: () => refs.readShallow(),
        options: () => Promise.resolve({ pinned: new Set(), assertHeld: () => Promise.resolve() }),
        report: (done) => Promise.resolve(void reported.push(done)),
      });
    try {
      const undone = cut();
      await undone.stage(ids[2] ?? '');
      expect(git(['--git-dir', gitdir, 'for-each-ref', '--format=%(objectname)', 'refs/vigil-dropped'])).toBe(ids[0]);
      await undone.discard();
      expect(git(['--git-dir', gitdir, 'for-each-ref', 'refs/vigil-dropped'])).toBe('');
      expect(read(path.join(gitdir, 'shallow'))).toBe('');
      expect(await undone.report()).toBe(0);
      expect(await service.count(dir)).toBe(3);

      const applied = cut();
      await applied.stage(ids[2] ?? '');
      await applied.apply(ids[2] ?? '');
      expect(await applied.report()).toBe(1);
      expect(reported).toEqual([{ dirhash: dirHash(dir), dropped: 1, kept: 2, reason: 'retention' }]);
      expect(read(path.join(gitdir, 'shallow'))).toBe(ids[1]);
      expect(await service.count(dir)).toBe(2);
      expect(fsck(gitdir)).toBe('');
    } finally {
      await store.close();
    }
  });

  it('undoes a cut still being staged when the ref fails to move beside it (nothing is left once the call failed)', async () => {
    const root = path.join(base, 'home/checkpoints');
    const gitdir = path.join(root, 'store');
    service = testService(root, { retention: { maxSnapshots: 2 } });
    const ids = [await checkpoint(0), await checkpoint(1)];
    // The objects' fsync fails at once, while the cut beside it is still walking the timeline and writing its dropped ref.
    vi.spyOn(ObjectStore.prototype, 'syncWritten').mockRejectedValueOnce(new Error('EIO: the disk failed'));
    await expect(checkpoint(2)).rejects.toThrow(/failed to checkpoint/);
    // Anything a stage outliving its undo wrote would be on disk by now (it takes a few milliseconds).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(git(['--git-dir', gitdir, 'for-each-ref', 'refs/vigil-dropped'])).toBe('');
    expect(readdirSync(gitdir).filter((name) => name.startsWith('shallow'))).toEqual([]);
    expect((await service.list(dir)).map((entry) => entry.id)).toEqual([ids[1], ids[0]]);
    expect(fsck(gitdir)).toBe('');
  });
});
