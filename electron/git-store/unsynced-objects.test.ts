import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { ObjectStore } from './object-store';
import { openInside } from '../test-support/open-descriptors';

let gitdir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  let root: string;
  ({ dir: root, remove } = await makeTempDir('vigil-unsynced-'));
  gitdir = path.join(root, 'store');
});
afterEach(async () => {
  await remove();
});

describe.runIf(process.platform === 'linux')('loose objects fsynced through the handles their writes kept', () => {
  it('makes every written object durable once, the same object written twice at once included, and keeps no handle after', async () => {
    const synced: string[][] = [];
    const store = new ObjectStore(gitdir, (files) => synced.push([...files]));
    try {
      const [a, again] = await Promise.all([
        store.writeLoose('blob', Buffer.from('same')),
        store.writeLoose('blob', Buffer.from('same')),
      ]);
      const others = await Promise.all(
        Array.from({ length: 40 }, (_, index) => store.writeLoose('blob', Buffer.from(`blob ${index}`))),
      );
      expect(again).toBe(a);
      // Handles are kept for at most 32 objects; the rest are reopened by name.
      expect(openInside(path.join(gitdir, 'objects')).length).toBeGreaterThan(0);
      expect(openInside(path.join(gitdir, 'objects')).length).toBeLessThanOrEqual(32);
      await store.syncWritten();
      const files = synced[0]?.filter((file) => !file.endsWith(path.sep + 'objects') && /[0-9a-f]{38}$/.test(file));
      expect(new Set(files)).toEqual(new Set([a, ...others].map((oid) => store.loosePath(oid))));
      expect(openInside(path.join(gitdir, 'objects'))).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("makes each file's data durable before any folder that names it (never a durable name for an empty file)", async () => {
    // A folder fsynced before its file's data could, after a power cut, name an empty file that the
    // next checkpoint takes as stored (the power-cut check found it when the two ran at once).
    for (let round = 0; round < 5; round += 1) {
      const synced: string[][] = [];
      const store = new ObjectStore(path.join(gitdir, String(round)), (files) => synced.push([...files]));
      try {
        await Promise.all(
          Array.from({ length: 60 }, (_, index) =>
            store.writeLoose('blob', Buffer.from(`round ${round} blob ${index}`)),
          ),
        );
        await store.syncWritten();
        const order = synced[0] ?? [];
        const isObject = (file: string): boolean => /[0-9a-f]{38}$/.test(file);
        const lastFile = order.findLastIndex(isObject);
        const firstFolder = order.findIndex((file) => !isObject(file));
        expect(lastFile).toBeGreaterThan(0);
        expect(firstFolder, `a folder made durable before a file: ${order.join(', ')}`).toBeGreaterThan(lastFile);
      } finally {
        await store.close();
      }
    }
  });

  it('closes the kept handles when a collection forgets them or the store closes', async () => {
    const store = new ObjectStore(gitdir);
    try {
      await store.writeLoose('blob', Buffer.from('one'));
      expect(openInside(path.join(gitdir, 'objects')).length).toBe(1);
      store.forgetUnsynced();
      await store.writeLoose('blob', Buffer.from('two'));
    } finally {
      await store.close();
    }
    // Both close without waiting for the handles: give the closes a turn.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(openInside(path.join(gitdir, 'objects'))).toEqual([]);
  });

  it('closes the handles of writes still under way when the store closes (none kept after close)', async () => {
    const store = new ObjectStore(gitdir);
    const writes = Array.from({ length: 10 }, (_, index) =>
      store.writeLoose('blob', Buffer.from(`in flight ${index}`)),
    );
    await store.close();
    await Promise.all(writes);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(openInside(path.join(gitdir, 'objects'))).toEqual([]);
  });

  it('keeps no handle past the end of a store lock hold, a write under way then included', async () => {
    const synced: string[] = [];
    const store = new ObjectStore(gitdir, (files) => synced.push(...files));
    try {
      const done = await store.writeLoose('blob', Buffer.from('written in the hold'));
      const crossing = store.writeLoose('blob', Buffer.from('still being written as the hold ends'));
      store.endHold();
      const late = await crossing;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(openInside(path.join(gitdir, 'objects'))).toEqual([]);
      // Both stay noted: the next sync fsyncs them by name.
      await store.syncWritten();
      expect(synced).toEqual(expect.arrayContaining([store.loosePath(done), store.loosePath(late)]));
    } finally {
      await store.close();
    }
  });
});
