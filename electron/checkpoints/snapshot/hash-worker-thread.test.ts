import { appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import {
  bigTreeCheckpointed,
  created,
  fsck,
  generateTree,
  gitWriteTree,
  testService,
} from '../test-support/store-fixtures';
import { HashWorker } from './hash-worker-client';
import type { HashWorkerReply } from './hash-worker';
import {
  defaultWorkerCount,
  prestartWalkWorkers,
  splitWalkCacheBytes,
  startHashWorkerThread,
  walkWorkerCount,
  workerEntry,
} from './hash-worker-thread';
import { withWalkHeadStart } from './walk-head-start';

/** Resolves once the thread has ended. */
function ended(worker: Worker): Promise<void> {
  return new Promise((resolve) => {
    if (worker.threadId === -1) resolve();
    else worker.once('exit', () => resolve());
  });
}

describe("the walk's first worker thread, started before the head start loads", () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let root: string;
  let configFile: string;
  const forcedWorkers = process.env['VIGIL_HASH_WORKERS'];

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-walk-worker-'));
    dir = path.join(base, 'work');
    root = path.join(base, 'home', 'checkpoints');
    configFile = path.join(base, 'home', 'config.json');
    await bigTreeCheckpointed(dir, root);
    // One worker whatever the load: the started thread is then the pool's only one.
    process.env['VIGIL_HASH_WORKERS'] = '1';
  });
  afterEach(async () => {
    if (forcedWorkers === undefined) delete process.env['VIGIL_HASH_WORKERS'];
    else process.env['VIGIL_HASH_WORKERS'] = forcedWorkers;
    await remove();
  });

  it('starts only for a directory whose stat cache says it is big, and the head start walks on that thread', async () => {
    const small = path.join(base, 'small');
    generateTree(small, 10);
    const service = testService(root);
    try {
      created(await service.checkpoint(small, { reason: 'small' }));
    } finally {
      await service.dispose();
    }
    expect(await prestartWalkWorkers({ root, dir: small })).toEqual([]);
    expect(await prestartWalkWorkers({ root, dir: path.join(base, 'missing') })).toEqual([]);

    const started = await prestartWalkWorkers({ root, dir });
    const [worker] = started;
    expect(started).toHaveLength(1);
    if (worker === undefined) throw new Error('no worker started for a big directory');
    const replies: HashWorkerReply[] = [];
    worker.on('message', (reply: HashWorkerReply) => replies.push(reply));
    appendFileSync(path.join(dir, 'd0/f1.txt'), 'changed\n');
    const expected = gitWriteTree(path.join(base, 'shadow'), dir);
    const outcome = await withWalkHeadStart(
      { root, configFile, dir, started: Promise.resolve(started) },
      async (headStart) => {
        expect(headStart).toBeDefined();
        await headStart?.walked;
        const engine = testService(root, { ...(headStart === undefined ? {} : { headStart }) });
        try {
          return await engine.checkpoint(dir, { reason: 'second' });
        } finally {
          await engine.dispose();
        }
      },
    );
    expect(created(outcome).tree).toBe(expected);
    // The walk's listings came from the thread started ahead, and the pool that took it over stopped it.
    expect(replies.some((reply) => reply.partial !== undefined)).toBe(true);
    await ended(worker);
    expect(fsck(path.join(root, 'store'))).toBe('');
  });

  it('is stopped when the head start cannot use it (no big stat cache at the resolved directory)', async () => {
    const worker = startHashWorkerThread(path.join(root, 'store'), await workerEntry());
    const other = path.join(base, 'other');
    generateTree(other, 10);
    const headStart = await withWalkHeadStart(
      { root, configFile, dir: other, started: Promise.resolve([worker]) },
      (given) => Promise.resolve(given),
    );
    expect(headStart).toBeUndefined();
    await ended(worker);
  });

  it('fails the commands of a thread that ended before it was taken over, instead of leaving them waiting', async () => {
    const worker = startHashWorkerThread(
      path.join(root, 'store'),
      new URL(`file://${path.join(base, 'no-such-worker.js')}`),
    );
    await ended(worker);
    const taken = new HashWorker(path.join(root, 'store'), worker);
    await expect(taken.send({ type: 'finish' })).rejects.toThrow();
  });

  it('walks a tree of 100,000 files or more with two threads when there are two cores, whatever the load; a smaller one as the load allows', () => {
    const cores = os.availableParallelism();
    expect(walkWorkerCount(splitWalkCacheBytes - 1, {})).toBe(defaultWorkerCount(true, {}));
    expect(walkWorkerCount(splitWalkCacheBytes, {})).toBe(Math.max(defaultWorkerCount(true, {}), Math.min(2, cores)));
    // VIGIL_HASH_WORKERS (a benchmark's fixed count) wins at every size.
    expect(walkWorkerCount(splitWalkCacheBytes * 2, { VIGIL_HASH_WORKERS: '1' })).toBe(1);
    expect(walkWorkerCount(0, { VIGIL_HASH_WORKERS: '3' })).toBe(3);
  });
});
