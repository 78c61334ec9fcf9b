import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultMaxFileBytes } from '../maintenance/retention';
import { storeLayout } from '../../git-store/store-layout';
import { HashWorkerPool } from './hash-worker-pool';
import { defaultWorkerCount } from './hash-worker-thread';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Resolves once `isDone` holds, checking at each turn of the timers; fails after `limitMs`. */
async function until(isDone: () => boolean, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!isDone()) {
    if (Date.now() > deadline) throw new Error(`still not done after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('HashWorkerPool', () => {
  it('lets its workers go once idle, and starts new ones for the next batch', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-pool-'));
    dirs.push(dir);
    const gitdir = storeLayout(path.join(dir, 'home')).gitdir;
    await mkdir(path.join(gitdir, 'objects', 'pack'), { recursive: true });
    await writeFile(path.join(gitdir, 'HEAD'), 'ref: refs/heads/main\n');
    const work = path.join(dir, 'work');
    await mkdir(work);
    const names = Array.from({ length: 40 }, (_, index) => `f${index}.txt`);
    for (const name of names) await writeFile(path.join(work, name), `${name}\n`);
    const pool = new HashWorkerPool(gitdir, 1, 100);
    const hashAll = async (): Promise<number> => {
      let stored = 0;
      await pool.run(
        work,
        names.map((rel) => ({ rel, isSymlink: false, mode: '100644' as const })),
        defaultMaxFileBytes,
        (results) => (stored += results.filter((result) => result.kind === 'stored').length),
        'loose',
      );
      return stored;
    };
    try {
      expect(await hashAll()).toBe(40);
      expect(pool.isRunning).toBe(true);
      await until(() => !pool.isRunning, 10_000);
      // Let go, not broken: the next batch runs on new workers.
      expect(await hashAll()).toBe(40);
    } finally {
      await pool.dispose();
    }
  });

  it('lets its workers go as soon as a big run ends, and keeps them after a small one', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-pool-'));
    dirs.push(dir);
    const gitdir = storeLayout(path.join(dir, 'home')).gitdir;
    execFileSync('git', ['init', '-q', '--bare', gitdir]);
    const work = path.join(dir, 'work');
    await mkdir(work);
    const names = Array.from({ length: 40 }, (_, index) => `f${index}.txt`);
    for (const name of names) await writeFile(path.join(work, name), `${name}\n`);
    // Idle for a minute before they would go: only the size of a run lets them go within this test.
    const pool = new HashWorkerPool(gitdir, 2, 60_000, 30);
    const hash = async (count: number): Promise<string[]> => {
      const oids: string[] = [];
      await pool.run(
        work,
        names.slice(0, count).map((rel) => ({ rel, isSymlink: false, mode: '100644' as const })),
        defaultMaxFileBytes,
        (results) => oids.push(...results.flatMap((result) => (result.kind === 'stored' ? [result.oid] : []))),
      );
      return oids;
    };
    try {
      expect(await hash(10)).toHaveLength(10);
      expect(pool.isRunning).toBe(true);
      const oids = await hash(40);
      expect(pool.isRunning).toBe(false);
      // Every object of the big run is in its packs, as git reads them.
      const listed = execFileSync('git', ['--git-dir', gitdir, 'cat-file', '--batch-check', '--batch-all-objects'], {
        encoding: 'utf8',
      });
      for (const oid of oids) expect(listed).toContain(`${oid} blob`);
      // Let go, not broken: the next run starts new workers.
      expect(await hash(20)).toHaveLength(20);
      expect(pool.isRunning).toBe(true);
    } finally {
      await pool.dispose();
    }
  });

  it('starts the number of workers VIGIL_HASH_WORKERS asks for, whatever the cores and the load, and ignores a bad value', () => {
    for (const isOneShot of [true, false]) {
      for (const count of [1, 2, 3, 4]) {
        expect(defaultWorkerCount(isOneShot, { VIGIL_HASH_WORKERS: ` ${count} ` })).toBe(count);
      }
      const unset = defaultWorkerCount(isOneShot, {});
      for (const bad of ['0', '5', 'two', '', '2.5', '-1']) {
        expect(defaultWorkerCount(isOneShot, { VIGIL_HASH_WORKERS: bad })).toBe(unset);
      }
    }
  });
});
