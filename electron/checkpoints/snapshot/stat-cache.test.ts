import { readFileSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { DirState } from './dir-state';
import { fileModes } from '../store/git-objects';
import { loadStatCache, saveStatCache } from './stat-cache';
import { statCacheFile, storeLayout, dirHash } from '../store/store-layout';
import { testService, writeTree } from '../test-support/store-fixtures';

describe('the stat cache', () => {
  let base: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-statcache-'));
  });
  afterEach(async () => {
    await remove();
  });

  it('round-trips files, folders, skips and tree ids, and refuses a damaged or foreign file', async () => {
    const state = new DirState();
    const record = {
      mode: fileModes.executable,
      oid: 'a'.repeat(40),
      size: 12,
      mtimeNs: 1_700_000_000_123_456_789n,
      ctimeNs: 1_700_000_001_000_000_001n,
      ino: 987_654_321n,
    };
    state.setFile('src/run.sh', record);
    state.setFile('we\tird\nname.txt', { ...record, mode: fileModes.file, oid: 'b'.repeat(40) });
    state.setSkipped('node_modules', 'excluded', true);
    state.setSkipped('big.bin', 'oversize', false);
    await state.buildTree(() => Promise.resolve());
    state.head = 'c'.repeat(40);
    state.stampNs = 1_700_000_002_000_000_000n;
    const file = path.join(base, 'cache');
    await saveStatCache(file, '/project', state);

    const loaded = await loadStatCache(file, '/project');
    expect(loaded?.head).toBe(state.head);
    expect(loaded?.stampNs).toBe(state.stampNs);
    expect(loaded?.file('src/run.sh')).toEqual(record);
    expect(loaded?.file('we\tird\nname.txt')?.oid).toBe('b'.repeat(40));
    expect(loaded?.skippedPaths()).toEqual(state.skippedPaths());
    expect([...(loaded?.folders() ?? [])]).toEqual([...state.folders()]);

    expect(await loadStatCache(file, '/another/project')).toBeUndefined();
    const saved = readFileSync(file);
    const flipped = Buffer.from(saved);
    flipped[saved.length - 40] = (flipped[saved.length - 40] ?? 0) ^ 1;
    writeFileSync(file, flipped);
    expect(await loadStatCache(file, '/project')).toBeUndefined();
    writeFileSync(file, saved.subarray(0, 200));
    expect(await loadStatCache(file, '/project')).toBeUndefined();
    writeFileSync(file, saved.toString('latin1').replace('vigil-stat-cache 2', 'vigil-stat-cache 1'), 'latin1');
    expect(await loadStatCache(file, '/project')).toBeUndefined();
  });

  it('is saved by one process and trusted by the next, which then hashes nothing', async () => {
    const dir = path.join(base, 'work');
    mkdirSync(dir);
    writeTree(dir, { 'a.txt': 'a\n', 'sub/b.txt': 'b\n' });
    // Old timestamps: nothing is "racy", so the stat records alone decide.
    const past = new Date(Date.now() - 3_600_000);
    for (const name of ['a.txt', 'sub/b.txt']) utimesSync(path.join(dir, name), past, past);
    const root = path.join(base, 'home/checkpoints');
    const first = testService(root);
    const outcome = await first.checkpoint(dir, { reason: 'before write_file' });
    await first.dispose();
    const cache = await loadStatCache(statCacheFile(storeLayout(root), dirHash(dir)), dir);
    expect(cache?.head).toBe(outcome.kind === 'created' ? outcome.checkpoint.id : '');
    expect(cache?.fileCount).toBe(2);
    // Proof that the next process trusts the records: a record naming another blob is believed
    // (git's index works the same way); the cache is only ever written by the engine itself.
    const file = statCacheFile(storeLayout(root), dirHash(dir));
    const aRecord = cache?.file('a.txt');
    const bOid = cache?.file('sub/b.txt')?.oid ?? '';
    if (cache === undefined || aRecord === undefined) throw new Error('no cache');
    cache.setFile('a.txt', { ...aRecord, oid: bOid });
    await saveStatCache(file, dir, cache);
    const second = testService(root);
    try {
      writeTree(dir, { 'c.txt': 'c\n' });
      const next = await second.checkpoint(dir, { reason: 'before patch' });
      const tree = next.kind === 'created' ? await second.readTree(next.checkpoint.tree) : [];
      expect(tree.find((entry) => entry.name === 'a.txt')?.oid).toBe(bOid);
    } finally {
      await second.dispose();
    }
  });
});
