import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { hashObject } from '../../git-store';
import { checkpointInChild } from '../test-support/checkpoint-in-child';

/**
 * A checkpoint that is confirmed has fsynced every object it names. A checkpoint whose store
 * write fails part way (a full disk, a quota, a file size limit) fails, but the objects it wrote
 * before the failure stay in the store, never fsynced. The retry once space is freed finds them there
 * and, on the main thread, takes an object that exists for a durable one: it confirms a checkpoint
 * naming objects no one ever fsynced (a power cut then loses them, and the checkpoint with them).
 */

const fileSizeLimit = 512 * 1024;

describe('the retry of a checkpoint whose store write failed part way', () => {
  let base: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-retry-durable-'));
  });
  afterEach(async () => {
    await remove();
  });

  for (const [where, failing, retry] of [
    ['in a worker, retried on the main thread', 1, 100],
    ['on the main thread, retried on the main thread', 100, 100],
  ] as const) {
    it(`fsyncs, before it is confirmed, the objects the failed one wrote (${where})`, async () => {
      const root = path.join(base, 'home', 'checkpoints');
      const dir = path.join(base, 'work');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'a.txt'), 'written before the store filled up\n');
      writeFileSync(path.join(dir, 'z.data'), randomBytes(4 * fileSizeLimit));
      const first = await checkpointInChild(root, dir, failing, fileSizeLimit);
      expect(first.kind).toMatch(/^failed/);
      const object = path.join(
        root,
        'store',
        'objects',
        ...splitOid(hashObject('blob', Buffer.from('written before the store filled up\n'))),
      );
      // The failed checkpoint left a.txt's object in the store (nobody fsynced it: the process ended with the failure).
      expect(existsSync(object)).toBe(true);
      const second = await checkpointInChild(root, dir, retry);
      expect(second.kind).toBe('created');
      expect(second.synced, `made durable: ${second.synced.join(', ')}`).toContain(object);
    });
  }
});

function splitOid(oid: string): [string, string] {
  return [oid.slice(0, 2), oid.slice(2)];
}
