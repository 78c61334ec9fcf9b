import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settleBeside, stillWaiting, swapInFifo } from '../../test-support/fifo';
import { makeTempDir } from '../../test-support/temp-dir';
import { holdDirectory } from '../../files';
import { FolderSyncs, type HeldForSync } from './restore-folder-syncs';

/** Real folders; a folder removed before its fsync makes that fsync find it gone (reported, not thrown), which shows when it ran. */

let root: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-folder-syncs-'));
});
afterEach(async () => {
  await remove();
});

function folder(name: string): string {
  const made = path.join(root, name);
  mkdirSync(made, { recursive: true });
  return made;
}

describe('the folder fsyncs of a batch of restore writes', () => {
  it('fsyncs a folder only once the last write into it has finished', async () => {
    const a = folder('a');
    const syncs = new FolderSyncs([a, a]);
    syncs.finished(a, [a]);
    // Had the first write's finish fsynced the folder, removing it now would go unnoticed.
    rmSync(a, { recursive: true });
    syncs.finished(a, [a]);
    await expect(syncs.settled()).resolves.toEqual(new Set([a]));
  });

  it('fsyncs a folder early, while writes into other folders still run', async () => {
    const a = folder('a');
    const b = folder('b');
    const syncs = new FolderSyncs([a, b]);
    syncs.finished(a, [a]);
    // The fsync of `a` is under way; `b` is removed before its own (last) write finishes.
    rmSync(b, { recursive: true });
    syncs.finished(b, [b]);
    await expect(syncs.settled()).resolves.toEqual(new Set([b]));
  });

  it('fsyncs at the end a folder a write changed without writing into it (as a parent of a folder it created), and the folders given as later', async () => {
    // Apart from the written folder, so removing them cannot race that folder's early fsync.
    const written = folder('w');
    const changedToo = folder('p');
    const deletedFrom = folder('d');
    const syncs = new FolderSyncs([written]);
    syncs.later(deletedFrom);
    syncs.finished(written, [written, changedToo]);
    // Removed after the write finished but before the end: only the end's fsyncs can find them gone.
    rmSync(changedToo, { recursive: true });
    await expect(syncs.settled()).resolves.toEqual(new Set([changedToo]));
    const later = new FolderSyncs([written]);
    later.later(deletedFrom);
    later.finished(written, [written]);
    rmSync(deletedFrom, { recursive: true });
    await expect(later.settled()).resolves.toEqual(new Set([deletedFrom]));
  });

  it('fsyncs a folder through the descriptor its last write held, and not again by its path', async () => {
    const a = folder('a');
    let closed = 0;
    const held = async (): Promise<HeldForSync> => {
      const opened = await holdDirectory(a);
      const close = (): Promise<void> => {
        closed += 1;
        return opened.close();
      };
      return { path: opened.path, sync: () => opened.sync(), close };
    };
    const syncs = new FolderSyncs([a, a]);
    // Another write into the folder is left: the first one keeps (and closes) its own hold.
    const first = await held();
    expect(syncs.syncHeld(first)).toBe(false);
    await first.close();
    syncs.finished(a, [a]);
    expect(syncs.syncHeld(await held())).toBe(true);
    // Moved away before its last write is counted finished: an fsync by path would find it gone.
    renameSync(a, path.join(root, 'moved'));
    syncs.finished(a, [a]);
    await expect(syncs.settled()).resolves.toEqual(new Set());
    expect(closed).toBe(2);
  });

  it('settles once every folder is fsynced, including folders whose writes all failed', async () => {
    const folders = Array.from({ length: 30 }, (_, index) => folder(`f${index % 10}`));
    const syncs = new FolderSyncs(folders);
    for (const [index, item] of folders.entries()) syncs.finished(item, index % 3 === 0 ? [] : [item]);
    await expect(syncs.settled()).resolves.toEqual(new Set());
  });

  it('does not fsync a folder whose writes all failed (it may not exist: a file took its place)', async () => {
    const written = folder('w');
    const failedOnly = path.join(root, 'gone', 'deep');
    writeFileSync(path.join(root, 'gone'), 'a file where the folder was');
    const syncs = new FolderSyncs([written, failedOnly, failedOnly]);
    syncs.finished(failedOnly, []);
    syncs.finished(written, [written]);
    syncs.finished(failedOnly, []);
    await expect(syncs.settled()).resolves.toEqual(new Set());
  });

  it.skipIf(process.platform === 'win32')(
    'finds a folder another program put a FIFO or a symbolic link in place of gone, at once (reported, not thrown)',
    async () => {
      const fifo = folder('fifo');
      const link = folder('link');
      const elsewhere = folder('elsewhere');
      const syncs = new FolderSyncs([fifo, link]);
      // The folders were written into, then moved away, and something else put at their names.
      renameSync(fifo, path.join(root, 'fifo.moved'));
      swapInFifo(fifo);
      renameSync(link, path.join(root, 'link.moved'));
      symlinkSync(elsewhere, link);
      syncs.finished(fifo, [fifo]);
      syncs.finished(link, [link]);
      const outcome = await settleBeside(syncs.settled(), fifo);
      expect(outcome).not.toBe(stillWaiting);
      expect(outcome).toEqual({ value: new Set([fifo, link]) });
    },
  );
});
