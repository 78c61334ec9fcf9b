import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import type { CheckpointService } from '../checkpoint-service';
import { RefStore } from '../../git-store/ref-store';
import { dirHash } from '../../git-store/store-layout';
import { fsck, git, testService } from '../test-support/store-fixtures';
import { measureStore } from './store-usage';
import { tombstoneFile } from './dropped-area';

/** Incompressible content, so each version takes its own room in a pack. */
const versionBytes = 256 * 1024;

describe('the recently dropped area, on a real store', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let root: string;
  let service: CheckpointService;

  async function takeVersions(from: number, to: number): Promise<string[]> {
    const ids: string[] = [];
    for (let version = from; version <= to; version += 1) {
      writeFileSync(path.join(dir, 'data.txt'), `v${version}\n${randomBytes(versionBytes).toString('base64')}\n`);
      const outcome = await service.checkpoint(dir, { reason: `version ${version}` });
      if (outcome.kind !== 'created') throw new Error('expected a checkpoint');
      ids.push(outcome.checkpoint.id);
    }
    return ids;
  }

  function droppedRefs(): string[] {
    const text = git(['--git-dir', service.gitdir, 'for-each-ref', '--format=%(refname)', 'refs/vigil-dropped']);
    return text === '' ? [] : text.split('\n');
  }

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-dropped-'));
    dir = path.join(base, 'work');
    mkdirSync(dir);
    root = path.join(base, 'home/checkpoints');
  });
  afterEach(async () => {
    await service.dispose();
    await remove();
  });

  it('over the size cap, dropped batches leave first, oldest cut first, before any timeline is cut', async () => {
    service = testService(root, { retention: { maxSnapshots: 2 } });
    const ids = await takeVersions(1, 5);
    // Each checkpoint past the second cut one: three batches of one, versions 1, 2 and 3.
    expect(droppedRefs()).toHaveLength(3);
    expect((await service.dropped(dir)).entries.map((entry) => entry.id)).toEqual([ids[2], ids[1], ids[0]]);
    await service.prune();
    const full = (await measureStore(path.join(service.gitdir, 'objects'))).bytes;
    // Room for everything but about one and a half versions: two batches must go, the timeline stays whole.
    const perVersion = full / 5;
    service.updateSettings({
      retention: { maxSnapshots: 2, maxTotalBytes: Math.round(full - perVersion * 1.5), keepDroppedDays: 7 },
      maxFileBytes: 10 * 1024 * 1024,
    });
    await service.prune();
    expect(await service.count(dir)).toBe(2);
    const dropped = (await service.dropped(dir)).entries;
    expect(dropped.map((entry) => [entry.id, entry.expiredBecause])).toEqual([
      [ids[2], undefined],
      [ids[1], 'space'],
      [ids[0], 'space'],
    ]);
    expect(droppedRefs()).toHaveLength(1);
    expect(fsck(service.gitdir)).toBe('');
    // Git agrees: the expired ones' objects are gone, the one left is whole.
    expect(() => git(['--git-dir', service.gitdir, 'cat-file', '-t', ids[0] ?? ''])).toThrow();
    expect(git(['--git-dir', service.gitdir, 'log', '--format=%s', droppedRefs()[0] ?? ''])).toBe('version 3');
    await expect(service.resolve(dir, 'd2')).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/expired on .* to keep the store under its size cap/) as unknown,
    });
    expect((await service.resolve(dir, 'd1')).dropped).toMatchObject({ number: 1, droppedBy: 'retention' });
  });

  it('a cut killed after its dropped ref, before the shallow list, lists nothing twice and leaves git a sound store', async () => {
    service = testService(root, { retention: { maxSnapshots: 50 } });
    const ids = await takeVersions(1, 4);
    // Step 1 of a cut of the two oldest, then the kill: the shallow list never changed.
    const refs = new RefStore(service.gitdir);
    await refs.writeDropped(dirHash(dir), `${Date.now() - 1000}-retention`, ids[1] ?? '');
    expect(fsck(service.gitdir)).toBe('');
    expect(await service.count(dir)).toBe(4);
    expect((await service.dropped(dir)).entries).toEqual([]);

    // The next cut (maxSnapshots lowered to 2) drops the same two: listed once each.
    service.updateSettings({
      retention: { maxSnapshots: 2, maxTotalBytes: 500 * 1024 * 1024, keepDroppedDays: 7 },
      maxFileBytes: 10 * 1024 * 1024,
    });
    const [fifth] = await takeVersions(5, 5);
    expect(await service.count(dir)).toBe(2);
    expect((await service.dropped(dir)).entries.map((entry) => entry.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(droppedRefs()).toHaveLength(2);
    expect(fsck(service.gitdir)).toBe('');

    // With no days to keep them, the next look lets every batch go; their tombstones stay.
    service.updateSettings({
      retention: { maxSnapshots: 2, maxTotalBytes: 500 * 1024 * 1024, keepDroppedDays: 0 },
      maxFileBytes: 10 * 1024 * 1024,
    });
    await service.prune();
    expect(droppedRefs()).toEqual([]);
    expect(fsck(service.gitdir)).toBe('');
    expect(() => git(['--git-dir', service.gitdir, 'cat-file', '-t', ids[0] ?? ''])).toThrow();
    expect(git(['--git-dir', service.gitdir, 'cat-file', '-t', fifth ?? ''])).toBe('commit');
    const tombstones = readFileSync(tombstoneFile(root), 'utf8').trim().split('\n');
    expect(tombstones).toHaveLength(2);
    expect((await service.dropped(dir)).entries.every((entry) => entry.expiredBecause === 'age')).toBe(true);
  });
});
