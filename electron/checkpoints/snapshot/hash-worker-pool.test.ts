import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultMaxFileBytes } from '../maintenance/retention';
import { storeLayout } from '../../git-store/store-layout';
import { defaultWorkerCount, HashWorkerPool } from './hash-worker-pool';

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
