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
