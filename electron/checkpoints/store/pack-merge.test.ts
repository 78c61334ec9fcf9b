import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { fsck, git, testService } from '../test-support/store-fixtures';
import { hashObject } from './git-objects';
import { ObjectStore } from './object-store';
import { mergeSmallPacks } from './pack-merge';
import { PackWriter } from './pack-writer';

/** The packs in a pack folder, by name. */
const packNames = (packDir: string): string[] =>
  readdirSync(packDir)
    .filter((name) => name.endsWith('.pack'))
    .map((name) => name.slice(0, -'.pack'.length))
    .sort();

/** Writes one pack of blobs; returns its name. */
async function writePack(packDir: string, contents: readonly string[]): Promise<string> {
  const writer = await PackWriter.create(packDir);
  for (const content of contents)
    await writer.add('blob', Buffer.from(content), hashObject('blob', Buffer.from(content)));
  const written = await writer.finish();
  return written?.name ?? '';
}

describe('merging small packs', () => {
  let base: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-pack-merge-'));
  });
  afterEach(async () => {
    await remove();
  });

  /** A bare store with one big pack and nine small ones (one object in two of them, one also in the big pack). */
  async function storeWithPacks(): Promise<{ store: ObjectStore; big: string; contents: string[] }> {
    const store = new ObjectStore(path.join(base, 'store'));
    git(['init', '--quiet', '--bare', store.gitdir]);
    const bigContents = Array.from({ length: 300 }, (_, index) => `big ${index}\n`);
    const big = await writePack(store.packDir, bigContents);
    const contents = [...bigContents];
    for (let pack = 0; pack < 9; pack += 1) {
      const small = Array.from({ length: 5 }, (_, index) => `small ${pack}.${index}\n`);
      if (pack === 1) small.push('small 0.0\n', 'big 7\n');
      await writePack(store.packDir, small);
      contents.push(...small);
    }
    await store.refresh(true);
    return { store, big, contents: [...new Set(contents)] };
  }

  it('merges every pack but the largest into one that git verifies, every object still readable', async () => {
    const { store, big, contents } = await storeWithPacks();
    expect(packNames(store.packDir)).toHaveLength(10);
    const report = await mergeSmallPacks(store, () => Promise.resolve());
    expect(report).toMatchObject({ mergedPacks: 9, objects: 46 });
    expect(packNames(store.packDir)).toEqual([big, report.pack].sort());
    git(['--git-dir', store.gitdir, 'verify-pack', path.join(store.packDir, `${report.pack ?? ''}.idx`)]);
    for (const content of contents) {
      const oid = hashObject('blob', Buffer.from(content));
      expect(git(['--git-dir', store.gitdir, 'cat-file', 'blob', oid])).toBe(content.trim());
      expect((await store.readTyped(oid, 'blob')).toString()).toBe(content);
    }
    expect(fsck(store.gitdir)).toBe('');
    await store.close();
  });

  it('leaves every pack as it was when the store lock was lost while merging', async () => {
    const { store, contents } = await storeWithPacks();
    const before = packNames(store.packDir);
    const lost = new Error('the store lock was taken over');
    await expect(mergeSmallPacks(store, () => Promise.reject(lost))).rejects.toBe(lost);
    expect(packNames(store.packDir)).toEqual(before);
    await store.refresh(true);
    for (const content of contents)
      expect((await store.readTyped(hashObject('blob', Buffer.from(content)), 'blob')).toString()).toBe(content);
    await store.close();
  });

  it('is what maintenance does when only the number of packs grew: checkpoints kept, nothing collected', async () => {
    const dir = path.join(base, 'work');
    const service = testService(path.join(base, 'home/checkpoints'));
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'a.txt'), 'one\n');
    const taken = await service.checkpoint(dir, { reason: 'by hand' });
    expect(taken.kind).toBe('created');
    const packDir = path.join(service.gitdir, 'objects/pack');
    mkdirSync(packDir, { recursive: true });
    // Nine packs; their objects are reachable from no checkpoint, which a collection would drop.
    for (let pack = 0; pack < 9; pack += 1) await writePack(packDir, [`unreachable ${pack}\n`]);
    await service.dispose();
    expect(packNames(packDir).length).toBeLessThanOrEqual(2);
    const unreachable = hashObject('blob', Buffer.from('unreachable 4\n'));
    expect(git(['--git-dir', service.gitdir, 'cat-file', '-t', unreachable])).toBe('blob');
    expect(fsck(service.gitdir)).toBe('');
    const again = testService(path.join(base, 'home/checkpoints'));
    expect((await again.list(dir)).map((entry) => entry.id)).toEqual(
      taken.kind === 'created' ? [taken.checkpoint.id] : [],
    );
    await again.dispose();
  });
});
