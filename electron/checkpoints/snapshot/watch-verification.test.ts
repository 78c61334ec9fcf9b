import { chmodSync, lstatSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { scanFolder, modeOfStat, type HashCandidate } from './stat-walk';
import { DirState } from './dir-state';
import { StoreRules } from './store-rules';
import { TrackedDirectory } from './tracked-directory';
import { verifyWatchedState } from './watch-verification';

const rules = { maxFileBytes: 1024 * 1024, ignoredFolders: [], store: StoreRules.builtIn };

/**
 * The state a watched checkpoint of `dir` leaves: a walk, with a record (stat and a stand-in blob
 * id: the comparison is of stats) for every file it found, trusted, as if a watcher ran.
 */
async function watchedStateOf(dir: string): Promise<TrackedDirectory> {
  const tracked = new TrackedDirectory(dir, 'test');
  const state = new DirState();
  const candidates: HashCandidate[] = [];
  await scanFolder(
    { root: dir, state, maxFileBytes: rules.maxFileBytes, ignoredFolders: [], rules: StoreRules.builtIn },
    '',
    candidates,
  );
  for (const { rel } of candidates) {
    const stats = lstatSync(path.join(dir, rel), { bigint: true });
    state.setFile(rel, {
      mode: modeOfStat(stats),
      oid: '0'.repeat(40),
      size: Number(stats.size),
      mtimeNs: stats.mtimeNs,
      ctimeNs: stats.ctimeNs,
      ino: stats.ino,
    });
  }
  tracked.state = state;
  tracked.isWatched = true;
  tracked.needsFullScan = false;
  return tracked;
}

describe('the background verification walk', () => {
  let dir: string;
  let remove: () => Promise<void>;
  const caughtUp = (): Promise<boolean> => Promise.resolve(true);

  beforeEach(async () => {
    ({ dir, remove } = await makeTempDir('vigil-verify-'));
    mkdirSync(path.join(dir, 'gen/deep'), { recursive: true });
    writeFileSync(path.join(dir, 'a.txt'), 'a\n');
    writeFileSync(path.join(dir, 'gen/b.txt'), 'b\n');
    writeFileSync(path.join(dir, 'gen/deep/c.txt'), 'c\n');
    writeFileSync(path.join(dir, 'photo.png'), 'not stored\n');
  });
  afterEach(async () => {
    await remove();
  });

  it('finds nothing when the disk is as the state says', async () => {
    const tracked = await watchedStateOf(dir);
    expect(await verifyWatchedState(tracked, rules, caughtUp)).toEqual({ kind: 'verified', entries: 6, missed: [] });
    expect(tracked.defects).toBe(0);
    expect(tracked.verifiedAt).toBeDefined();
  });

  it('reports every change no event announced as a defect, and queues it for the next checkpoint', async () => {
    const tracked = await watchedStateOf(dir);
    writeFileSync(path.join(dir, 'a.txt'), 'changed\n');
    chmodSync(path.join(dir, 'gen/b.txt'), 0o755);
    rmSync(path.join(dir, 'gen/deep'), { recursive: true });
    mkdirSync(path.join(dir, 'new'));
    writeFileSync(path.join(dir, 'gen/d.txt'), 'd\n');
    const outcome = await verifyWatchedState(tracked, rules, caughtUp);
    const missed = ['a.txt', 'gen/b.txt', 'gen/d.txt', 'gen/deep', 'new'];
    expect(outcome.kind === 'verified' ? [...outcome.missed].sort() : outcome).toEqual(missed);
    expect(tracked.defects).toBe(5);
    expect([...tracked.dirty].sort()).toEqual(missed);
  });

  it('counts no defect for a change the watcher reported, itself or through a folder above it', async () => {
    const tracked = await watchedStateOf(dir);
    writeFileSync(path.join(dir, 'a.txt'), 'changed\n');
    writeFileSync(path.join(dir, 'gen/deep/c.txt'), 'changed too\n');
    // The watcher reports while the walk runs: the catch-up is what delivers it.
    const outcome = await verifyWatchedState(tracked, rules, () => {
      tracked.dirty.add('a.txt');
      tracked.dirty.add('gen');
      return caughtUp();
    });
    expect(outcome).toEqual({ kind: 'verified', entries: 6, missed: [] });
    expect(tracked.defects).toBe(0);
  });

  it('proves nothing when a checkpoint took the dirty set during the walk, or the watcher did not catch up', async () => {
    const tracked = await watchedStateOf(dir);
    writeFileSync(path.join(dir, 'a.txt'), 'changed\n');
    const during = await verifyWatchedState(tracked, rules, () => {
      tracked.takeDirty();
      return caughtUp();
    });
    expect(during.kind).toBe('inconclusive');
    expect(await verifyWatchedState(tracked, rules, () => Promise.resolve(false))).toEqual({
      kind: 'inconclusive',
      reason: 'the watcher did not catch up',
    });
    expect(tracked.defects).toBe(0);
  });
});
