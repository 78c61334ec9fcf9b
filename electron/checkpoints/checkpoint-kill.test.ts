import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import type { CheckpointEntry } from './checkpoint-types';
import { dirHash } from '../git-store/store-layout';
import { fsck, generateTree, git, testService } from './test-support/store-fixtures';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'checkpoint-kill.child.ts');

/** Runs the busy writer until it has printed `steps` lines plus a random pause, then SIGKILLs it. */
function runAndKill(root: string, dir: string, steps: number, pauseMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, root, dir], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let isKilled = false;
    proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (!isKilled && out.split('\n').length > steps) {
        isKilled = true;
        setTimeout(() => proc.kill('SIGKILL'), pauseMs);
      }
    });
    proc.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(out);
      else reject(new Error(`the writer exited by itself (code ${code}): ${err}`));
    });
  });
}

/** Every temp file an interrupted writer can leave in the store. */
function leftovers(gitdir: string): string[] {
  return readdirSync(path.join(gitdir, 'objects'), { recursive: true })
    .map(String)
    .filter((name) => /tmp_|\.tmp-/.test(name));
}

describe('a store writer killed with SIGKILL', () => {
  let base: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-kill-'));
  });
  afterEach(async () => {
    await remove();
  });

  it('leaves a store that git fsck finds valid once Vigil reopens it, and the timeline goes on', async () => {
    // Kills at different moments: mid-checkpoint, mid-pack, mid-garbage-collection.
    const plans = [
      [1, 0],
      [1, 40],
      [2, 15],
      [3, 5],
      [4, 90],
      [2, 170],
      [5, 25],
      [6, 60],
      [3, 130],
      [7, 10],
    ] as const;
    const runs = plans.map(async ([steps, pause], index) => {
      const root = path.join(base, `home${index}`, 'checkpoints');
      const dir = path.join(base, `work${index}`);
      mkdirSync(dir, { recursive: true });
      generateTree(dir, 600, index);
      const printed = await runAndKill(root, dir, steps, pause);
      expect(printed).toMatch(/checkpoint 0/);
      const service = testService(root, { retention: { maxSnapshots: 4 } });
      try {
        // Reopening takes over the dead writer's lock and repairs what it left.
        const before = await service.list(dir);
        expect(existsSync(path.join(root, 'store.lock'))).toBe(false);
        expect(leftovers(service.gitdir)).toEqual([]);
        expect(fsck(service.gitdir)).toBe('');
        const ref = git(['--git-dir', service.gitdir, 'rev-parse', `refs/vigil/${dirHash(dir)}`]);
        expect(before[0]?.id).toBe(ref);
        writeFileSync(path.join(dir, 'after-the-crash.txt'), 'still works\n');
        const next = await service.checkpoint(dir, { reason: 'before write_file' });
        expect(next).toMatchObject({ kind: 'created', checkpoint: { parent: ref } });
        await service.prune();
        expect(fsck(service.gitdir)).toBe('');
      } finally {
        await service.dispose();
      }
    });
    // Three at a time: enough pressure, bounded on two cores.
    for (let start = 0; start < runs.length; start += 3) await Promise.all(runs.slice(start, start + 3));
  }, 180_000);

  it('repairs what a power cut can leave: partial objects, half-made packs, a ref to a missing commit', async () => {
    const root = path.join(base, 'home', 'checkpoints');
    const dir = path.join(base, 'work');
    mkdirSync(dir);
    generateTree(dir, 40);
    const service = testService(root);
    const taken: CheckpointEntry[] = [];
    for (let index = 0; index < 3; index += 1) {
      writeFileSync(path.join(dir, 'n.txt'), `n ${index}\n`);
      const outcome = await service.checkpoint(dir, { reason: 'before write_file' });
      if (outcome.kind === 'created') taken.push(outcome.checkpoint);
    }
    await service.dispose();
    const gitdir = service.gitdir;
    // The newest commit's object is truncated (its data never reached the disk), and the last writer's
    // lock, temp object and unfinished pack are left behind.
    const newest = taken[2]?.id ?? '';
    const newestFile = path.join(gitdir, 'objects', newest.slice(0, 2), newest.slice(2));
    truncateSync(newestFile, 0);
    const lockTime = new Date(Date.now() - 5_000);
    writeFileSync(
      path.join(root, 'store.lock'),
      JSON.stringify({
        pid: 2 ** 22 + 12_345,
        hostname: (await import('node:os')).hostname(),
        token: 'dead',
        acquiredAt: lockTime.toISOString(),
      }),
    );
    writeFileSync(path.join(gitdir, 'objects', newest.slice(0, 2), 'tmp_obj_abcdef'), 'partial');
    writeFileSync(path.join(gitdir, 'objects/pack/tmp_pack_123456'), 'PACK');
    writeFileSync(
      path.join(gitdir, 'objects/pack/pack-0123456789012345678901234567890123456789.pack'),
      'PACK without its index',
    );
    utimesSync(newestFile, new Date(), new Date());
    expect(() => fsck(gitdir)).toThrow();

    const reopened = testService(root);
    try {
      const list = await reopened.list(dir);
      expect(list.map((entry) => entry.id)).toEqual([taken[1]?.id, taken[0]?.id]);
      expect(fsck(gitdir)).toBe('');
      expect(leftovers(gitdir)).toEqual([]);
      expect(readFileSync(path.join(root, 'repairs.log'), 'utf8')).toContain(
        `${newest} was incomplete; moved back to ${taken[1]?.id ?? ''}`,
      );
      expect(readdirSync(path.join(root, 'quarantine'))).toHaveLength(1);
      const next = await reopened.checkpoint(dir, { reason: 'before patch' });
      expect(next).toMatchObject({ kind: 'created', checkpoint: { parent: taken[1]?.id } });
      expect(fsck(gitdir)).toBe('');
    } finally {
      await reopened.dispose();
    }
  });
  it.each(['commit', 'root tree'])(
    'repairs a head whose %s is torn even when no writer was interrupted (a power cut after a clean exit)',
    async (torn) => {
      const root = path.join(base, 'home', 'checkpoints');
      const dir = path.join(base, 'work');
      mkdirSync(dir);
      generateTree(dir, 10);
      const service = testService(root);
      const taken: CheckpointEntry[] = [];
      for (let index = 0; index < 2; index += 1) {
        writeFileSync(path.join(dir, 'n.txt'), `n ${index}\n`);
        const outcome = await service.checkpoint(dir, { reason: 'before write_file' });
        if (outcome.kind === 'created') taken.push(outcome.checkpoint);
      }
      await service.dispose();
      const gitdir = service.gitdir;
      // The rename reached the disk, the data did not: the object is there but empty. No lock is left.
      const newest = taken[1];
      const oid = torn === 'commit' ? (newest?.id ?? '') : (newest?.tree ?? '');
      truncateSync(path.join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2)), 0);
      expect(existsSync(path.join(root, 'store.lock'))).toBe(false);

      const reopened = testService(root);
      try {
        expect((await reopened.list(dir)).map((entry) => entry.id)).toEqual([taken[0]?.id]);
        expect(fsck(gitdir)).toBe('');
        expect(readdirSync(path.join(root, 'quarantine'))).toHaveLength(1);
        expect((await reopened.checkpoint(dir, { reason: 'before patch' })).kind).toBe('created');
        expect(fsck(gitdir)).toBe('');
      } finally {
        await reopened.dispose();
      }
    },
  );
});
