import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { hashObject, ObjectStore } from '../../git-store';
import { FileHasher } from './file-hasher';

let base: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-file-hasher-'));
});
afterEach(async () => {
  await remove();
});

describe('a worker-style FileHasher writing loose objects', () => {
  it('tells the fan-out folders it made, and the store then makes them durable in objects/', async () => {
    const synced: string[] = [];
    const store = new ObjectStore(path.join(base, 'store'), (files) => synced.push(...files));
    const root = path.join(base, 'work');
    mkdirSync(root);
    try {
      // objects/ exists and is durable already: only the worker's new fan-out folder needs it fsynced again.
      await store.writeLoose('blob', Buffer.from('made by the main thread'));
      await store.syncWritten();
      synced.length = 0;
      writeFileSync(path.join(root, 'f.txt'), 'hashed in a worker\n');
      const oid = hashObject('blob', Buffer.from('hashed in a worker\n'));
      expect(oid.slice(0, 2)).not.toBe(hashObject('blob', Buffer.from('made by the main thread')).slice(0, 2));
      const madeFans: string[] = [];
      const hasher = new FileHasher(store, 'loose', true, (fan) => madeFans.push(fan));
      await hasher.begin();
      const results = await hasher.hash({
        root,
        items: [{ rel: 'f.txt', isSymlink: false, mode: '100644' }],
        maxFileBytes: 1 << 20,
      });
      await hasher.finish();
      const stored = results.flatMap((result) => (result.kind === 'stored' ? [result] : []));
      expect(stored.map((result) => result.oid)).toEqual([oid]);
      expect(madeFans).toEqual([oid.slice(0, 2)]);
      store.noteWrittenElsewhere(
        stored.map((result) => result.oid),
        madeFans,
      );
      await store.syncWritten();
      expect(synced).toEqual(
        expect.arrayContaining([store.loosePath(oid), path.dirname(store.loosePath(oid)), store.objectsDir]),
      );
    } finally {
      await store.close();
    }
  });
});

describe('a FileHasher that cannot read a source file', () => {
  // The read's failures stay that file's outcome (the store's write failing fails the checkpoint instead:
  // store-write-failure.test.ts). Run as root, a permission cannot make a read fail: a name too long for
  // the file system (ENAMETOOLONG at open) stands for any errno of the read.
  it.each([
    { thread: 'the main thread', isWorker: false },
    { thread: 'a worker', isWorker: true },
  ])('on $thread, skips it as unreadable (or vanished, or special) and stores its neighbour', async ({ isWorker }) => {
    const store = new ObjectStore(path.join(base, 'store'));
    const root = path.join(base, 'work');
    mkdirSync(root);
    writeFileSync(path.join(root, 'kept.txt'), 'kept\n');
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    try {
      const hasher = new FileHasher(store, 'loose', isWorker);
      await hasher.begin();
      const results = await hasher.hash({
        root,
        items: ['kept.txt', 'x'.repeat(300), 'gone.txt', 'pipe'].map((rel) => ({
          rel,
          isSymlink: false,
          mode: '100644' as const,
        })),
        maxFileBytes: 1 << 20,
      });
      await hasher.finish();
      expect(results.map((result) => `${result.kind}${result.kind === 'skipped' ? `:${result.reason}` : ''}`)).toEqual([
        'stored',
        'skipped:unreadable',
        'vanished',
        'skipped:special',
      ]);
      expect(await store.has(hashObject('blob', Buffer.from('kept\n')))).toBe(true);
    } finally {
      await store.close();
    }
  });
});
