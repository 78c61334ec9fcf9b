import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileLock, runOutsideFileLocks } from '../../locks/file-lock';
import { makeTempDir } from '../../test-support/temp-dir';
import type { CheckpointOutcome } from '../checkpoint-types';
import {
  bigTreeCheckpointed,
  created,
  fsck,
  generateTree,
  gitWriteTree,
  testService,
} from '../test-support/store-fixtures';
import { withWalkHeadStart, type WalkHeadStart } from './walk-head-start';

const lockChild = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../locks/file-lock.child.ts');

describe('a walk head start (a one-shot `vigil checkpoint` walking before its core loads)', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let root: string;
  let configFile: string;
  const children: ChildProcess[] = [];

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-head-start-'));
    dir = path.join(base, 'work');
    root = path.join(base, 'home', 'checkpoints');
    configFile = path.join(base, 'home', 'config.json');
    await bigTreeCheckpointed(dir, root);
    writeFileSync(path.join(dir, 'd0/f1.txt'), 'changed\n');
    writeFileSync(path.join(dir, 'd3/new.txt'), 'new\n');
    unlinkSync(path.join(dir, 'd7/f2.txt'));
    rmSync(path.join(dir, 'd9'), { recursive: true });
  });
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await remove();
  });

  /** Once the head start's walk ended, changes a file, then checkpoints with an engine given the head start. */
  async function checkpointAfterTheWalk(headStart: WalkHeadStart | undefined): Promise<CheckpointOutcome> {
    await headStart?.walked;
    appendFileSync(path.join(dir, 'd1/f1.txt'), 'after the walk\n');
    const service = testService(root, { ...(headStart === undefined ? {} : { headStart }) });
    try {
      return await service.checkpoint(dir, { reason: 'second' });
    } finally {
      await service.dispose();
    }
  }

  it('walks under the store lock and is adopted: the checkpoint is of the tree as that walk saw it', async () => {
    const lockPath = path.join(root, 'store.lock');
    const expected = gitWriteTree(path.join(base, 'shadow'), dir);
    let adopted: WalkHeadStart | undefined;
    const outcome = await withWalkHeadStart({ root, configFile, dir }, async (headStart) => {
      adopted = headStart;
      expect(headStart).toBeDefined();
      expect(existsSync(lockPath)).toBe(true);
      // Another contender finds the store taken while the walk runs.
      const other = new FileLock({ path: lockPath, resource: 'the checkpoint store', timeoutMs: 50 });
      await expect(runOutsideFileLocks(() => other.tryWithLock(() => Promise.resolve()))).resolves.toEqual({
        kind: 'busy',
      });
      // Changed after the walk: the checkpoint is the walk's, so it does not see this (the next one will).
      return checkpointAfterTheWalk(headStart);
    });
    const entry = created(outcome);
    expect(entry.tree).toBe(expected);
    expect(entry.stats.files).toBeGreaterThanOrEqual(3);
    expect(existsSync(lockPath)).toBe(false);
    expect(adopted?.pool.isRunning).toBe(false);
    expect(fsck(path.join(root, 'store'))).toBe('');
    const next = testService(root);
    try {
      expect(created(await next.checkpoint(dir, { reason: 'third' })).tree).toBe(
        gitWriteTree(path.join(base, 'shadow'), dir),
      );
    } finally {
      await next.dispose();
    }
  });

  it('is not adopted by an engine with another file size cap: the checkpoint walks anew, and the workers stop', async () => {
    mkdirSync(path.dirname(configFile), { recursive: true });
    writeFileSync(configFile, JSON.stringify({ checkpoints: { maxFileMiB: 5 } }));
    let started: WalkHeadStart | undefined;
    const outcome = await withWalkHeadStart({ root, configFile, dir }, async (headStart) => {
      started = headStart;
      expect(headStart?.maxFileBytes).toBe(5 * 1024 * 1024);
      return checkpointAfterTheWalk(headStart);
    });
    expect(created(outcome).tree).toBe(gitWriteTree(path.join(base, 'shadow'), dir));
    expect(started?.pool.isRunning).toBe(false);
  });

  it('starts no walk for a directory without a big stat cache, nor while another process holds the store lock', async () => {
    const small = path.join(base, 'small');
    generateTree(small, 10);
    const service = testService(root);
    try {
      created(await service.checkpoint(small, { reason: 'small' }));
    } finally {
      await service.dispose();
    }
    const never = path.join(base, 'never');
    generateTree(never, 2_500);
    for (const other of [small, never, path.join(base, 'missing')]) {
      expect(await withWalkHeadStart({ root, configFile, dir: other }, (headStart) => Promise.resolve(headStart))).toBe(
        undefined,
      );
    }
    const lockPath = path.join(root, 'store.lock');
    const holder = spawn(process.execPath, ['--import', 'tsx', lockChild, 'hold', lockPath], { stdio: 'pipe' });
    children.push(holder);
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('held')) resolve();
      });
      holder.on('exit', () => reject(new Error('the lock holder exited')));
    });
    expect(await withWalkHeadStart({ root, configFile, dir }, (headStart) => Promise.resolve(headStart))).toBe(
      undefined,
    );
  });
});
