import { readFileSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { DirState } from './dir-state';
import { fileModes } from '../../git-store/git-objects';
import { loadStatCache, saveStatCache } from './stat-cache';
import { statCacheFile, storeLayout, dirHash } from '../../git-store/store-layout';
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

  it('saves a loaded state changed in a few folders (the rest copied as saved) as a fresh state of the same content would', async () => {
    const record = (index: number) => ({
      mode: index % 3 === 0 ? fileModes.executable : fileModes.file,
      oid: index.toString(16).padStart(40, '0'),
      size: index,
      mtimeNs: 1_700_000_000_000_000_000n + BigInt(index),
      ctimeNs: 1_700_000_000_500_000_000n + BigInt(index),
      ino: 1_000_000n + BigInt(index),
    });
    const build = (edit: (state: DirState) => void): DirState => {
      const state = new DirState();
      for (let index = 0; index < 60; index += 1)
        state.setFile(`d${index % 4}/s${index % 3}/f${index}.txt`, record(index));
      state.setSkipped('d1/node_modules', 'excluded', true);
      state.setSkipped('d2/s0/big.bin', 'oversize', false);
      edit(state);
      return state;
    };
    const original = build(() => undefined);
    await original.buildTree(() => Promise.resolve());
    original.head = 'c'.repeat(40);
    const file = path.join(base, 'cache');
    await saveStatCache(file, '/project', original);
    // Each kind of change, in a few folders: an edited record, a new file, a removed file, a new
    // skip, a removed folder, a new folder; every other folder stays as loaded.
    const changes = (state: DirState): void => {
      state.setFile('d0/s1/f4.txt', { ...record(4), size: 99, oid: 'e'.repeat(40) });
      state.setFile('d3/s0/new.txt', record(1000));
      state.remove('d2/s2/f2.txt');
      state.setSkipped('d3/s2/.env', 'excluded', false);
      state.remove('d1/s1');
      state.setFile('fresh/deep/n.txt', record(2000));
    };
    const loaded = await loadStatCache(file, '/project');
    if (loaded === undefined) throw new Error('no cache');
    changes(loaded);
    const expected = build(changes);
    await Promise.all([loaded.buildTree(() => Promise.resolve()), expected.buildTree(() => Promise.resolve())]);
    expect(loaded.skippedPaths()).toEqual(expected.skippedPaths());
    expect(loaded.fileCount).toBe(expected.fileCount);
    await saveStatCache(path.join(base, 'changed'), '/project', loaded);
    const reloaded = await loadStatCache(path.join(base, 'changed'), '/project');
    expect(new Map(reloaded?.files())).toEqual(new Map(expected.files()));
    expect(reloaded?.skippedPaths()).toEqual(expected.skippedPaths());
    expect(new Map(reloaded?.folders())).toEqual(new Map(expected.folders()));
    expect(reloaded?.head).toBe(original.head);
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
