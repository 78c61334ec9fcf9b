import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { ObjectStore } from './object-store';
import { RefStore } from './ref-store';
import { timelineRef } from './store-layout';

/**
 * A ref moves only once what it names is durable: the objects' fsyncs run while the new ref is
 * written under a temp name (issue 31: the waits for the disk overlap), and the rename comes after.
 */

const dirhash = '0123456789abcdef';
let gitdir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  let root: string;
  ({ dir: root, remove } = await makeTempDir('vigil-ref-store-'));
  gitdir = path.join(root, 'store');
});
afterEach(async () => {
  await remove();
});

/** The ref file's content now ('' when there is none). */
function refOnDisk(): string {
  try {
    return readFileSync(path.join(gitdir, timelineRef(dirhash)), 'utf8').trim();
  } catch {
    return '';
  }
}

/** A commit object with one empty tree, written loose (not yet fsynced). */
async function looseCommit(store: ObjectStore, message: string): Promise<string> {
  const tree = await store.writeLoose('tree', new Uint8Array());
  const body = `tree ${tree}\nauthor a <a@a> 0 +0000\ncommitter a <a@a> 0 +0000\n\n${message}\n`;
  return store.writeLoose('commit', Buffer.from(body));
}

describe('RefStore.update with objects to make durable first', () => {
  it('moves the ref only after every object it names is fsynced, and git reads the result', async () => {
    const events: string[] = [];
    const store = new ObjectStore(gitdir, (files) => {
      // The objects are reported once fsynced: the ref must not have moved yet.
      events.push(`objects synced (ref: ${refOnDisk() || 'none'})`);
      expect(files.length).toBeGreaterThanOrEqual(2);
    });
    const refs = new RefStore(gitdir, () => events.push(`ref synced (ref: ${refOnDisk()})`));
    await refs.init();
    try {
      const first = await looseCommit(store, 'first');
      await refs.update(dirhash, first, undefined, 'checkpoint', {
        isDurable: true,
        before: () => store.syncWritten(),
      });
      const second = await looseCommit(store, 'second');
      await refs.update(dirhash, second, first, 'checkpoint', { isDurable: true, before: () => store.syncWritten() });
      expect(events).toEqual([
        'objects synced (ref: none)',
        `ref synced (ref: ${first})`,
        `objects synced (ref: ${first})`,
        `ref synced (ref: ${second})`,
      ]);
      const logged = execFileSync('git', ['--git-dir', gitdir, 'rev-parse', `refs/vigil/${dirhash}`], {
        encoding: 'utf8',
      });
      expect(logged.trim()).toBe(second);
      expect(readdirSync(path.join(gitdir, 'refs', 'vigil'))).toEqual([dirhash]);
    } finally {
      await store.close();
    }
  });

  it('leaves the ref where it was, and no temp file, when what must come first fails or the head moved', async () => {
    const store = new ObjectStore(gitdir);
    const refs = new RefStore(gitdir);
    await refs.init();
    try {
      const first = await looseCommit(store, 'first');
      await refs.update(dirhash, first, undefined, 'checkpoint', {
        isDurable: true,
        before: () => store.syncWritten(),
      });
      const second = await looseCommit(store, 'second');
      const failing = (): Promise<void> => Promise.reject(new Error('the disk refused the fsync'));
      await expect(refs.update(dirhash, second, first, 'checkpoint', { before: failing })).rejects.toThrow(
        'the disk refused the fsync',
      );
      expect(refOnDisk()).toBe(first);
      await expect(
        refs.update(dirhash, second, undefined, 'checkpoint', { before: () => store.syncWritten() }),
      ).rejects.toMatchObject({ code: 'conflict' });
      expect(refOnDisk()).toBe(first);
      expect(readdirSync(path.join(gitdir, 'refs', 'vigil'))).toEqual([dirhash]);
    } finally {
      await store.close();
    }
  });
  it('records the move in a reflog whose folder was removed, making the folder again', async () => {
    const store = new ObjectStore(gitdir);
    const refs = new RefStore(gitdir);
    await refs.init();
    try {
      const first = await looseCommit(store, 'first');
      await refs.update(dirhash, first, undefined, 'checkpoint one', { before: () => store.syncWritten() });
      rmSync(path.join(gitdir, 'logs'), { recursive: true });
      const second = await looseCommit(store, 'second');
      await refs.update(dirhash, second, first, 'checkpoint two', { before: () => store.syncWritten() });
      const log = readFileSync(path.join(gitdir, 'logs', timelineRef(dirhash)), 'utf8');
      expect(log).toMatch(new RegExp(`^${first} ${second} .*\tcheckpoint two\n$`));
      const shown = execFileSync(
        'git',
        ['--git-dir', gitdir, 'reflog', 'show', '--format=%H %gs', `refs/vigil/${dirhash}`],
        {
          encoding: 'utf8',
        },
      );
      expect(shown.trim()).toBe(`${second} checkpoint two`);
    } finally {
      await store.close();
    }
  });
});
