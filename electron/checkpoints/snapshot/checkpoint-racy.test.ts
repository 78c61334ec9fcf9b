import { lstatSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { DirState } from './dir-state';
import {
  applyFileOutcome,
  isRacy,
  listedStat,
  smudgeRacyRecords,
  type HashCandidate,
  type StatOutcome,
} from './folder-listing';
import { fileModes } from '../../git-store/git-objects';
import { loadStatCache } from './stat-cache';
import { dirHash, statCacheFile, storeLayout } from '../../git-store/store-layout';
import { git, testService, writeTree } from '../test-support/store-fixtures';

/** git's racy-entry rule: a file hashed within the timestamp granularity of its scan is re-hashed, not trusted, until a later scan looked at it. */

const second = 1_000_000_000n;

function stat(mtimeNs: bigint): StatOutcome {
  return {
    kind: 'stat',
    stat: {
      size: 5,
      mtimeNs,
      ctimeNs: mtimeNs,
      ino: 7n,
      mode: fileModes.file,
      isFile: true,
      isSymlink: false,
      isFolder: false,
    },
  };
}

/** Whether a scan at the state's stamp would re-hash `f.txt` whose stat is `outcome`. */
function rehashes(state: DirState, outcome: StatOutcome): boolean {
  const out: HashCandidate[] = [];
  applyFileOutcome(state, 'f.txt', outcome, 1 << 20, out);
  return out.some((candidate) => candidate.rel === 'f.txt');
}

describe('racy stat records', () => {
  it('re-hashes a record whose mtime is within the granularity of its scan, and trusts it once the scan is well past', () => {
    const mtimeNs = 1_700_000_000n * second + 123_456_789n;
    const state = new DirState();
    state.setFile('f.txt', { mode: fileModes.file, oid: 'a'.repeat(40), size: 5, mtimeNs, ctimeNs: mtimeNs, ino: 7n });
    state.stampNs = mtimeNs + 10_000_000n;
    expect(rehashes(state, stat(mtimeNs))).toBe(true);
    state.stampNs = mtimeNs + second;
    expect(rehashes(state, stat(mtimeNs))).toBe(false);
    // A whole-second mtime may come from a 1–2 s file system: racy for 2 s.
    const coarse = 1_700_000_000n * second;
    state.setFile('f.txt', {
      mode: fileModes.file,
      oid: 'a'.repeat(40),
      size: 5,
      mtimeNs: coarse,
      ctimeNs: coarse,
      ino: 7n,
    });
    state.stampNs = coarse + second;
    expect(rehashes(state, stat(coarse))).toBe(true);
    state.stampNs = coarse + 3n * second;
    expect(rehashes(state, stat(coarse))).toBe(false);
  });

  it('marks a racy record for re-hashing when the stamp moves on without a scan looking at it', async () => {
    const mtimeNs = 1_700_000_000n * second + 123_456_789n;
    const state = new DirState();
    const record = { mode: fileModes.file, oid: 'a'.repeat(40), size: 5, mtimeNs, ctimeNs: mtimeNs, ino: 7n };
    const rehashed = { ...record, oid: 'b'.repeat(40), mtimeNs: mtimeNs + 1n };
    state.setFile('f.txt', record);
    state.setFile('g.txt', rehashed);
    // The snapshot that hashed them began 10 ms after their mtimes: racy. A later one hashed g.txt again, and looked only at it.
    expect(isRacy(mtimeNs, mtimeNs + 10_000_000n)).toBe(true);
    await smudgeRacyRecords(
      state,
      new Map([
        ['f.txt', record],
        ['g.txt', { ...rehashed }],
      ]),
    );
    state.stampNs = mtimeNs + 60n * second;
    expect(rehashes(state, stat(mtimeNs))).toBe(true);
    expect(state.file('g.txt')).toBe(rehashed);
  });

  describe('through the engine, watching', () => {
    let base: string;
    let remove: () => Promise<void>;
    beforeEach(async () => {
      ({ dir: base, remove } = await makeTempDir('vigil-racy-'));
    });
    afterEach(async () => {
      await remove();
    });

    it(
      'a file hashed racily and left alone by the next snapshots is re-hashed by the next full walk; a same-size edit with the same mtime is captured',
      { timeout: 30_000 },
      async () => {
        const root = path.join(base, 'home', 'checkpoints');
        const dir = path.join(base, 'work');
        writeTree(dir, { 'f.txt': 'aaaa\n', 'g.txt': 'g0\n', 'h.txt': 'never touched\n' });
        const file = path.join(dir, 'f.txt');
        const old = new Date(Date.now() - 3_600_000);
        utimesSync(path.join(dir, 'h.txt'), old, old);
        const service = testService(root, { watch: true });
        let fileMtime: Date;
        try {
          await service.checkpoint(dir, { reason: 'first' });
          // f.txt changes with a whole-second mtime just behind the clock: racy for 2 s (the FAT/SMB rule).
          writeFileSync(file, 'bbbb\n');
          fileMtime = new Date(Math.floor(Date.now() / 1000) * 1000);
          utimesSync(file, fileMtime, fileMtime);
          expect((await service.checkpoint(dir, { reason: 'before write_file', paths: [file] })).kind).toBe('created');
          // The wall clock passes the racy window (no event marks it), then only g.txt changes.
          while (Date.now() < fileMtime.getTime() + 2_100) await sleep(50);
          writeTree(dir, { 'g.txt': 'g1\n' });
          expect(
            (await service.checkpoint(dir, { reason: 'before patch', paths: [path.join(dir, 'g.txt')] })).kind,
          ).toBe('created');
        } finally {
          await service.dispose();
        }
        // The saved stat cache must not vouch for f.txt: the next full walk re-hashes it, but not h.txt.
        const cache = await loadStatCache(statCacheFile(storeLayout(root), dirHash(dir)), dir);
        if (cache === undefined) throw new Error('no stat cache saved');
        const out: HashCandidate[] = [];
        for (const name of ['f.txt', 'h.txt'])
          applyFileOutcome(
            cache,
            name,
            { kind: 'stat', stat: listedStat(lstatSync(path.join(dir, name), { bigint: true })) },
            1 << 20,
            out,
          );
        expect(out.map((candidate) => candidate.rel)).toEqual(['f.txt']);

        // A same-size edit with the mtime put back is captured by the next checkpoint.
        writeFileSync(file, 'cccc\n');
        utimesSync(file, fileMtime, fileMtime);
        const again = testService(root);
        try {
          const outcome = await again.checkpoint(dir, { reason: 'before terminal: sed' });
          if (outcome.kind !== 'created') throw new Error('the edit was not captured');
          expect(git(['--git-dir', again.gitdir, 'show', `${outcome.checkpoint.id}:f.txt`])).toBe(
            readFileSync(file, 'utf8').trim(),
          );
        } finally {
          await again.dispose();
        }
      },
    );
  });
});
