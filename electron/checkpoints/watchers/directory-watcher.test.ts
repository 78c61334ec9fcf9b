import { mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { watchDirectory, type WatchedTree } from './directory-watcher';

/** Waits (up to a generous deadline, so a slow machine is not a failure) until `condition` holds. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; waited < 10_000; waited += 10) {
    if (condition()) return;
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('watchDirectory', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let stop: WatchedTree | undefined;
  const changed = new Set<string>();
  const overflows: string[] = [];

  beforeEach(async () => {
    ({ dir, remove } = await makeTempDir('vigil-watch-'));
    changed.clear();
    overflows.length = 0;
    mkdirSync(path.join(dir, 'src/deep'), { recursive: true });
    mkdirSync(path.join(dir, 'node_modules/pkg'), { recursive: true });
    writeFileSync(path.join(dir, 'src/deep/a.txt'), 'a');
  });
  afterEach(async () => {
    stop?.();
    await remove();
  });

  const start = async (maxFolders?: number): Promise<void> => {
    stop = await watchDirectory({
      root: dir,
      onChange: (rel) => changed.add(rel),
      onOverflow: (reason) => overflows.push(reason),
      isIgnoredFolder: (name) => name === 'node_modules',
      ...(maxFolders === undefined ? {} : { maxFolders }),
    });
  };

  it('reports files created, changed and deleted at any depth', async () => {
    await start();
    writeFileSync(path.join(dir, 'top.txt'), 'new');
    writeFileSync(path.join(dir, 'src/deep/a.txt'), 'changed');
    await until(() => changed.has('top.txt') && changed.has('src/deep/a.txt'), 'create and change events');
    await sleep(50);
    changed.clear();
    rmSync(path.join(dir, 'src/deep/a.txt'));
    rmSync(path.join(dir, 'top.txt'));
    await until(() => changed.has('src/deep/a.txt') && changed.has('top.txt'), 'the delete events');
    expect(overflows).toEqual([]);
  });

  it('watches folders that appear later, including ones moved in', async () => {
    await start();
    mkdirSync(path.join(dir, 'fresh/inner'), { recursive: true });
    await until(() => changed.has('fresh'), 'the new folder');
    // Give the watcher a moment to add its watches, then write deep inside.
    await until(() => {
      writeFileSync(path.join(dir, 'fresh/inner/file.txt'), String(Math.random()));
      return changed.has('fresh/inner/file.txt');
    }, 'a file inside the new folder');
    const outside = path.join(dir, '..', `${path.basename(dir)}-outside`);
    mkdirSync(path.join(outside, 'sub'), { recursive: true });
    renameSync(outside, path.join(dir, 'moved'));
    await until(() => changed.has('moved'), 'the moved-in folder');
    await until(() => {
      writeFileSync(path.join(dir, 'moved/sub/x.txt'), String(Math.random()));
      return changed.has('moved/sub/x.txt');
    }, 'a file inside the moved-in folder');
  });

  it('does not watch inside ignored folders but reports their creation', async () => {
    await start();
    writeFileSync(path.join(dir, 'node_modules/pkg/index.js'), 'x');
    mkdirSync(path.join(dir, 'node_modules2'));
    await until(() => changed.has('node_modules2'), 'a sibling event');
    expect([...changed].some((rel) => rel.startsWith('node_modules/'))).toBe(false);
  });

  it('gives up, and says so, when there are more folders than it may watch', async () => {
    if (process.platform === 'darwin' || process.platform === 'win32') return; // one native watch covers the tree there
    await start(2);
    expect(overflows).toEqual(['more than 2 folders to watch']);
  });

  /** Waits for the watcher to catch up (a sync cookie): every change made before is reported after. */
  const caughtUp = async (): Promise<void> => {
    expect(await stop?.catchUp(10_000)).toEqual({ kind: 'caught-up' });
  };

  it('has reported every change made before a catch-up once it resolves, and leaves no cookie behind', async () => {
    await start();
    writeFileSync(path.join(dir, 'top.txt'), 'new');
    rmSync(path.join(dir, 'src/deep/a.txt'));
    await caughtUp();
    expect([...changed].sort()).toEqual(['src/deep/a.txt', 'top.txt']);
    expect(readdirSync(dir).sort()).toEqual(['node_modules', 'src', 'top.txt']);
  });

  it('watches a folder removed and made again under the same name (a new inode its old watch never sees)', async () => {
    await start();
    rmSync(path.join(dir, 'src'), { recursive: true });
    mkdirSync(path.join(dir, 'src'));
    await caughtUp();
    // Once the new watch stands, the folder is reported again: its files may predate the watch.
    expect(changed.has('src')).toBe(true);
    changed.clear();
    writeFileSync(path.join(dir, 'src/b.txt'), 'b');
    mkdirSync(path.join(dir, 'e'));
    rmdirSync(path.join(dir, 'e'));
    mkdirSync(path.join(dir, 'e'));
    await caughtUp();
    expect(changed.has('src/b.txt')).toBe(true);
    changed.clear();
    writeFileSync(path.join(dir, 'e/c.txt'), 'c');
    await caughtUp();
    expect(changed.has('e/c.txt')).toBe(true);
    expect(overflows).toEqual([]);
  });

  it('follows a folder moved away and one moved into its place', async () => {
    await start();
    renameSync(path.join(dir, 'src'), path.join(dir, 'old'));
    mkdirSync(path.join(dir, 'src'));
    renameSync(path.join(dir, 'old/deep'), path.join(dir, 'src/deep'));
    await caughtUp();
    changed.clear();
    writeFileSync(path.join(dir, 'src/deep/a.txt'), 'changed');
    writeFileSync(path.join(dir, 'old/x.txt'), 'x');
    await caughtUp();
    expect([...changed].sort()).toEqual(['old/x.txt', 'src/deep/a.txt']);
  });
});
