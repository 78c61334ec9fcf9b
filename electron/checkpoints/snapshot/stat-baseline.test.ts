import {
  chmodSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { defaultMaxFileBytes } from '../maintenance/retention';
import { dirHash, statCacheFile, storeLayout } from '../../git-store/store-layout';
import { testService, writeTree } from '../test-support/store-fixtures';
import { walkBlocking } from './walk-blocking';
import { HashWorkerPool } from './hash-worker-pool';
import type { FolderListing } from './folder-listing';
import { msOfNsHalves, StatBaseline, type FolderCheck } from './stat-baseline';
import { StoreRules } from './store-rules';
import { readCheckedStatCache } from './stat-cache-format';

/** Every listing a walk hands over, by folder. */
function walk(dir: string, baseline?: StatBaseline): Map<string, FolderListing> {
  const handed = new Map<string, FolderListing>();
  walkBlocking(
    dir,
    '',
    { ignoredFolders: [], rules: StoreRules.builtIn },
    (listings) => listings.forEach((listing) => handed.set(listing.rel, listing)),
    Infinity,
    baseline,
  );
  return handed;
}

/** The baseline's verdict on a file, by its plain lstat (a bigint one if the baseline asks). */
function isSame(baseline: StatBaseline, check: FolderCheck, file: string): boolean {
  return baseline.isSameFile(check, path.basename(file), lstatSync(file), () => lstatSync(file, { bigint: true }));
}

/** A time in nanoseconds as the two 32-bit halves the baseline reads from the stat cache's column (both signed). */
function halvesOf(ns: bigint): [number, number] {
  return [Number(BigInt.asIntN(32, ns >> 32n)), Number(BigInt.asIntN(32, ns))];
}

describe("a record's time compared with a plain lstat", () => {
  it('is the very double node reports, for times before 1970, after 2038 and at the edges of a second', async () => {
    const { dir, remove } = await makeTempDir('vigil-baseline-times-');
    try {
      const times = [
        '0.000000001',
        '1.999999999',
        '-1.5',
        '-1000000000.75',
        '1700000000.123456789',
        '1765000000.000000999',
        '2147483647.999999999',
        '2147483648.000000001',
        '4102444800.987654321',
      ];
      // Node's arithmetic on the seconds and nanoseconds of times across ±60 years, either half's top bit set or not.
      for (let step = 0n; step < 20_000n; step += 1n) {
        const ns = step * 190_000_000_000_317n - 1_900_000_000_000_000_000n + (step % 7n) * 999_999_999n;
        const sec = ns >= 0n ? ns / 1_000_000_000n : -((-ns + 999_999_999n) / 1_000_000_000n);
        expect(msOfNsHalves(...halvesOf(ns))).toBe(Number(sec) * 1000 + Number(ns - sec * 1_000_000_000n) / 1_000_000);
      }
      for (const [index, time] of times.entries()) {
        const file = path.join(dir, `t${index}`);
        writeFileSync(file, '');
        execFileSync('touch', ['-m', '-d', `@${time}`, file]);
        const exact = lstatSync(file, { bigint: true });
        const plain = lstatSync(file);
        // The file system kept the time asked for: the case is the one meant.
        expect(`${exact.mtimeNs}`).toBe(
          `${BigInt(time.split('.')[0] ?? '') * 1_000_000_000n + (time.startsWith('-') ? -1n : 1n) * BigInt(time.split('.')[1]?.padEnd(9, '0') ?? '0')}`,
        );
        // Node's own arithmetic (seconds * 1e3 + nanoseconds / 1e6), pinned: a runtime that computes it
        // otherwise makes every file look changed to the walk (slow, never wrong) and fails here.
        expect(msOfNsHalves(...halvesOf(exact.mtimeNs))).toBe(plain.mtimeMs);
        expect(msOfNsHalves(...halvesOf(exact.ctimeNs))).toBe(plain.ctimeMs);
      }
    } finally {
      await remove();
    }
  });
});

describe('a worker walk against the stat cache (only the folders that differ are handed over)', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let baseline: StatBaseline;
  let content: Uint8Array;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-baseline-'));
    dir = path.join(base, 'work');
    const files: Record<string, string | { content: string; mode: number } | { symlink: string }> = {
      'top.txt': 'top\n',
      'run.sh': { content: '#!/bin/sh\n', mode: 0o755 },
      link: { symlink: 'top.txt' },
      'racy/r.txt': 'racy\n',
      'edit/e.txt': 'e 1\n',
      'skips/x.log': 'excluded by extension\n',
      'skips/.env': 'SECRET=1\n',
      'skips/node_modules/m.js': 'excluded folder\n',
      'gone/g.txt': 'g\n',
      'deep/er/d.txt': 'd\n',
    };
    for (let index = 0; index < 40; index += 1) files[`keep/f${index}.txt`] = `keep ${index}\n`;
    writeTree(dir, files);
    // Old enough not to be racy, but for racy/r.txt: a future mtime is racy under any stamp.
    const old = new Date(Date.now() - 60_000);
    for (const rel of Object.keys(files)) lutimesSync(path.join(dir, rel), old, old);
    const future = new Date(Date.now() + 600_000);
    utimesSync(path.join(dir, 'racy/r.txt'), future, future);
    // Up to 1 s before the checkpoint's scan: a whole-second mtime is racy (a 2 s window), a finer one 0.4 s older not (50 ms).
    const wholeSecond = Math.ceil(Date.now() / 1000) - 1;
    writeTree(dir, { 'whole/w.txt': 'w\n', 'fraction/f.txt': 'f\n' });
    utimesSync(path.join(dir, 'whole/w.txt'), wholeSecond, wholeSecond);
    utimesSync(path.join(dir, 'fraction/f.txt'), wholeSecond - 0.4, wholeSecond - 0.4);
    const root = path.join(base, 'home', 'checkpoints');
    const service = testService(root);
    try {
      expect((await service.checkpoint(dir, { reason: 'first' })).kind).toBe('created');
    } finally {
      await service.dispose();
    }
    const cache = await readCheckedStatCache(statCacheFile(storeLayout(root), dirHash(dir)), dir);
    if (cache === undefined) throw new Error('no stat cache was saved');
    content = cache.content;
    const loaded = StatBaseline.of(cache.content, defaultMaxFileBytes);
    if (loaded === undefined) throw new Error('the stat cache could not be read');
    baseline = loaded;
  });
  afterEach(async () => {
    await remove();
  });

  it('hands over, of an unchanged tree, only the folder whose record is racy, as a walk without the cache lists it', () => {
    const handed = walk(dir, baseline);
    expect([...handed.keys()].sort()).toEqual(['racy', 'whole']);
    expect(handed.get('racy')).toEqual(walk(dir).get('racy'));
  });

  it('hands over every folder whose listing differs, each as a walk without the cache lists it', () => {
    // Same size and mtime, new content: only the ctime and inode tell (a rename over it).
    const old = lstatSync(path.join(dir, 'edit/e.txt')).mtime;
    writeFileSync(path.join(dir, 'edit/e.tmp'), 'E 1\n');
    utimesSync(path.join(dir, 'edit/e.tmp'), old, old);
    renameSync(path.join(dir, 'edit/e.tmp'), path.join(dir, 'edit/e.txt'));
    // A file gone, a new excluded file, a file made executable, a folder gone, a folder's only file replaced by a folder.
    rmSync(path.join(dir, 'keep/f7.txt'));
    writeFileSync(path.join(dir, 'skips/y.log'), 'new excluded\n');
    chmodSync(path.join(dir, 'top.txt'), 0o755);
    rmSync(path.join(dir, 'gone'), { recursive: true });
    rmSync(path.join(dir, 'deep/er/d.txt'));
    mkdirSync(path.join(dir, 'deep/er/d.txt'));
    const handed = walk(dir, baseline);
    expect([...handed.keys()].sort()).toEqual([
      '',
      'deep/er',
      'deep/er/d.txt',
      'edit',
      'keep',
      'racy',
      'skips',
      'whole',
    ]);
    const full = walk(dir);
    for (const [rel, listing] of handed) expect(listing).toEqual(full.get(rel));
  });

  it('matches a folder whose files the walk meets in another order than the cache saved them', () => {
    const folder = path.join(dir, 'keep');
    const names = readdirSync(folder);
    for (const order of [[...names].sort(), [...names].sort().reverse()]) {
      const check = baseline.folder('keep');
      if (check === undefined) throw new Error('keep/ is not in the cache');
      for (const name of order) expect(isSame(baseline, check, path.join(folder, name))).toBe(true);
      expect(baseline.isWhole(check)).toBe(true);
    }
    // One file short: not the whole folder; a name the cache does not have: not the same.
    const short = baseline.folder('keep');
    if (short === undefined) throw new Error('keep/ is not in the cache');
    for (const name of names.slice(1)) isSame(baseline, short, path.join(folder, name));
    expect(baseline.isWhole(short)).toBe(false);
    expect(isSame(baseline, short, path.join(dir, 'top.txt'))).toBe(false);
  });

  it('compares a record whose inode number is too big for a double by a bigint lstat', () => {
    const file = path.join(dir, 'keep', 'f3.txt');
    const { ino } = lstatSync(file, { bigint: true });
    // The record's inode, found in the cache's inode column by its bytes, moved past 2^53.
    const at = Buffer.from(content).indexOf(Buffer.from(new BigUint64Array([ino]).buffer));
    expect(at).toBeGreaterThan(0);
    const patched = Buffer.from(content);
    const big = new BigUint64Array([ino + 2n ** 60n]);
    patched.set(new Uint8Array(big.buffer), at);
    const bigBaseline = StatBaseline.of(patched, defaultMaxFileBytes);
    if (bigBaseline === undefined) throw new Error('the patched stat cache could not be read');
    const asked: string[] = [];
    const verdict = (against: StatBaseline, given: bigint): boolean => {
      const check = against.folder('keep');
      if (check === undefined) throw new Error('keep/ is not in the cache');
      return against.isSameFile(check, 'f3.txt', lstatSync(file), () => {
        asked.push(file);
        return { ...lstatSync(file, { bigint: true }), ino: given };
      });
    };
    // The double of ino + 2^60 may equal another number's: only the exact comparison decides.
    expect(verdict(bigBaseline, ino)).toBe(false);
    expect(verdict(bigBaseline, ino + 2n ** 60n)).toBe(true);
    expect(asked).toEqual([file, file]);
    // A record within a double's range never asks.
    expect(verdict(baseline, ino)).toBe(true);
    expect(asked).toHaveLength(2);
  });

  it('a pool walk right after one against the cache compares with nothing: it hands over every folder', async () => {
    const pool = new HashWorkerPool(path.join(base, 'home', 'checkpoints', 'store'), 1);
    try {
      const walkWith = async (against?: Uint8Array): Promise<string[]> => {
        const rels: string[] = [];
        await pool.walk(
          dir,
          '',
          [],
          (listings) => rels.push(...listings.map((listing) => listing.rel)),
          against === undefined ? undefined : { content: against, maxFileBytes: defaultMaxFileBytes },
        );
        return rels.sort();
      };
      expect(await walkWith(content)).toEqual(['racy', 'whole']);
      expect(await walkWith()).toEqual([...walk(dir).keys()].sort());
    } finally {
      await pool.dispose();
    }
  });
});
