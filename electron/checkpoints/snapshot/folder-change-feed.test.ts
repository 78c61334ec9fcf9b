import { mkdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { DirectoryWatchers } from './directory-watchers';
import { TrackedDirectory } from './tracked-directory';

let base: string;
let remove: () => Promise<void>;
let watchers: DirectoryWatchers;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-feed-'));
  watchers = new DirectoryWatchers({ logger: silentLogger });
});

afterEach(async () => {
  await watchers.dispose();
  await remove();
});

/** Folder names: plain ones, ones the watcher does not look inside (dependencies, VCS folders), and look-alikes. */
const names = ['a', 'b', 'node_modules', '.git', 'x.egg-info', 'node_modules2', 'git'];
const relPath = fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));

describe('FolderChangeFeed', () => {
  it("answers for a covered folder's subfolder what a look at the subfolder's whole path answers (random unwatched folders)", async () => {
    const root = path.join(base, 'watched');
    mkdirSync(root);
    const tracked = new TrackedDirectory(root, 'watched');
    await watchers.watch(tracked, []);
    expect(tracked.isWatched).toBe(true);
    fc.assert(
      fc.property(
        fc.array(relPath, { maxLength: 4 }),
        fc.array(relPath, { minLength: 1, maxLength: 30 }),
        (unwatched, folders) => {
          tracked.walkedPaths.clear();
          for (const rel of unwatched) tracked.walkedPaths.set(rel, 'permission denied');
          const watch = watchers.feed.watchOf(root);
          if (watch === undefined) throw new Error('no watch');
          for (const rel of folders) {
            const folder = path.join(root, ...rel.split('/'));
            const parent = path.dirname(folder);
            if (watch.covers(parent)) expect(watch.coversSubfolder(folder)).toBe(watch.covers(folder));
          }
        },
      ),
      { numRuns: 300 },
    );
    tracked.walkedPaths.clear();
    tracked.isWatched = false;
    expect(watchers.feed.watchOf(root)?.coversSubfolder(path.join(root, 'a'))).toBe(false);
  });
});
