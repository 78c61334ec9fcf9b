import { mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { dirHash, registryFile, storeLayout } from '../../git-store/store-layout';
import { testService, writeTree } from '../test-support/store-fixtures';
import { DirRegistry } from './dir-registry';

describe("the directory registry's last touch", () => {
  let base: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-registry-'));
  });
  afterEach(async () => {
    await remove();
  });

  it('is written once for checkpoints of one-shot processes that follow each other within 30 s', async () => {
    const dir = path.join(base, 'work');
    mkdirSync(dir);
    const root = path.join(base, 'home/checkpoints');
    const file = registryFile(storeLayout(root), dirHash(dir));
    for (const version of [1, 2, 3]) {
      writeTree(dir, { 'a.txt': `version ${version}\n` });
      // A service per checkpoint, as each `vigil checkpoint` process has its own.
      const service = testService(root);
      try {
        const outcome = await service.checkpoint(dir, { reason: `version ${version}` });
        expect(outcome.kind).toBe('created');
      } finally {
        await service.dispose();
      }
    }
    const record = JSON.parse(readFileSync(file, 'utf8')) as { workdir: string; lastTouch: string };
    expect(record.workdir).toBe(dir);
    const before = statSync(file);
    const service = testService(root);
    try {
      writeTree(dir, { 'a.txt': 'version 4\n' });
      await service.checkpoint(dir, { reason: 'version 4' });
    } finally {
      await service.dispose();
    }
    // Not replaced: the record of the first checkpoint stands (same file, same last touch).
    expect(statSync(file).ino).toBe(before.ino);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(record);
  });

  it('is refreshed once the window has passed, or for another directory under the same hash', async () => {
    const registry = new DirRegistry(storeLayout(path.join(base, 'checkpoints')));
    const first = await registry.touch('0123456789abcdef', '/work', { at: new Date('2026-01-01T00:00:00Z') });
    const within = await registry.touch('0123456789abcdef', '/work', {
      at: new Date('2026-01-01T00:00:29Z'),
      unlessWithinMs: 30_000,
    });
    expect(within).toEqual(first);
    const after = await registry.touch('0123456789abcdef', '/work', {
      at: new Date('2026-01-01T00:00:31Z'),
      unlessWithinMs: 30_000,
    });
    expect(after).toEqual({ ...first, lastTouch: '2026-01-01T00:00:31.000Z' });
    const moved = await registry.touch('0123456789abcdef', '/elsewhere', {
      at: new Date('2026-01-01T00:00:32Z'),
      unlessWithinMs: 30_000,
    });
    expect(moved.workdir).toBe('/elsewhere');
    expect(await registry.read('0123456789abcdef')).toEqual(moved);
  });
});
