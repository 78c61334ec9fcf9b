import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { mergeSmallPacks, ObjectStore } from '../../git-store';
import { storeLayout } from '../../git-store/store-layout';
import { writeFiles } from '../test-support/restore-fixtures';
import { fsck, git } from '../test-support/store-fixtures';

/** Packs piling up with no garbage to look for (restores add two each) are merged without rewriting the base pack. */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let checkpointsRoot: string;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-pack-merge-'));
  dir = path.join(root, 'project');
  checkpointsRoot = path.join(root, 'home', 'checkpoints');
});
afterEach(async () => {
  await remove();
});

/** The store's pack files, with their sizes. */
function packsOf(gitdir: string): string[] {
  const folder = path.join(gitdir, 'objects', 'pack');
  return readdirSync(folder)
    .filter((name) => name.endsWith('.pack'))
    .map((name) => `${name} ${statSync(path.join(folder, name)).size}`)
    .sort();
}

/** Writes `count` files of the project with `text(index)` in them and checkpoints it. */
async function checkpointFiles(
  engine: CheckpointService,
  count: number,
  text: (index: number) => string,
): Promise<void> {
  writeFiles(dir, Object.fromEntries(Array.from({ length: count }, (_, index) => [`src/f${index}.txt`, text(index)])));
  const outcome = await engine.checkpoint(dir, { reason: 'version' });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
}

/**
 * A base of 600 incompressible files (~1.2 MiB), then nine small versions of 520 files each (over the pack
 * threshold: one small pack each); the process's first look collects them all into one pack.
 */
async function collectedBase(engine: CheckpointService): Promise<void> {
  await checkpointFiles(engine, 600, () => randomBytes(2048).toString('base64'));
  for (let version = 1; version <= 9; version += 1)
    await checkpointFiles(engine, 520, (index) => `version ${version} of ${index}\n`);
  expect(await engine.maintain()).toBe('collected');
}

describe('background maintenance of a store that only gained packs', () => {
  it('merges the small packs into one, leaving the base pack and every checkpoint as they were', async () => {
    const engine = new CheckpointService({ root: checkpointsRoot, logger: silentLogger });
    const { gitdir } = storeLayout(checkpointsRoot);
    try {
      await collectedBase(engine);
      const [base] = packsOf(gitdir);
      expect(packsOf(gitdir)).toHaveLength(1);
      // Nine more small versions, nothing dropped: nine small packs beside the base.
      for (let version = 10; version <= 18; version += 1)
        await checkpointFiles(engine, 520, (index) => `version ${version} of ${index}\n`);
      expect(packsOf(gitdir).length).toBeGreaterThan(8);
      const objectsBefore = git(['--git-dir', gitdir, 'rev-list', '--objects', '--all']);

      expect(await engine.maintain()).toBe('merged');
      const after = packsOf(gitdir);
      expect(after).toHaveLength(2);
      // The base pack is the very file it was (same name, same size): not rewritten.
      expect(after).toContain(base);
      expect(fsck(gitdir)).toBe('');
      expect(git(['--git-dir', gitdir, 'rev-list', '--objects', '--all'])).toBe(objectsBefore);
      expect(await engine.list(dir)).toHaveLength(19);
      // Nothing left to merge: the next look finds the store tidy.
      expect(await engine.maintain()).toBe('tidy');
    } finally {
      await engine.dispose();
    }
  }, 60_000);

  it('keeps the merged pack when the lock was lost after it was written (the new holder may rely on it)', async () => {
    const engine = new CheckpointService({ root: checkpointsRoot, logger: silentLogger });
    const { gitdir } = storeLayout(checkpointsRoot);
    try {
      await collectedBase(engine);
      for (let version = 10; version <= 13; version += 1)
        await checkpointFiles(engine, 520, (index) => `version ${version} of ${index}\n`);
    } finally {
      await engine.dispose();
    }
    const before = packsOf(gitdir);
    const objectsBefore = git(['--git-dir', gitdir, 'rev-list', '--objects', '--all']);
    let checks = 0;
    const lostAfterWriting = (): Promise<void> => {
      checks += 1;
      return checks > 1 ? Promise.reject(new Error('the store lock was lost')) : Promise.resolve();
    };
    await expect(mergeSmallPacks(new ObjectStore(gitdir), lostAfterWriting)).rejects.toThrow('lost');
    const after = packsOf(gitdir);
    // Every pack that was there is still there, and so is the new one: nothing a new holder relies on is gone.
    expect(after).toHaveLength(before.length + 1);
    for (const pack of before) expect(after).toContain(pack);
    expect(fsck(gitdir)).toBe('');
    expect(git(['--git-dir', gitdir, 'rev-list', '--objects', '--all'])).toBe(objectsBefore);
  }, 60_000);
});
