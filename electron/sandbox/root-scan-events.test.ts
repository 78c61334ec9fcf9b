import { linkSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirectoryWatchers } from '../checkpoints/snapshot/directory-watchers';
import { TrackedDirectory } from '../checkpoints/snapshot/tracked-directory';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { scanRoots, type RootScan } from './root-scan';
import { RootScanCache } from './root-scan-cache';

let base: string;
let remove: () => Promise<void>;
let watchers: DirectoryWatchers;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-scan-events-'));
  watchers = new DirectoryWatchers({ logger: silentLogger });
});

afterEach(async () => {
  await watchers.dispose();
  await remove();
});

/** A clock ahead of the file system's: no folder looks recently changed, so only the watcher's reports make the cache read one again. */
const aheadClock = (): number => Date.now() + 60_000;

/** A root watched as a resident core watches a checkpointed folder, and a cache fed by that watcher. */
async function watchedRoot(name: string): Promise<{ root: string; tracked: TrackedDirectory; cache: RootScanCache }> {
  const root = path.join(base, name);
  mkdirSync(root, { recursive: true });
  const tracked = new TrackedDirectory(root, name);
  await watchers.watch(tracked, []);
  expect(tracked.isWatched).toBe(true);
  return { root, tracked, cache: new RootScanCache({ now: aheadClock, events: watchers.feed }) };
}

function folderCount(root: string): number {
  return 1 + readdirSync(root, { withFileTypes: true, recursive: true }).filter((entry) => entry.isDirectory()).length;
}

function sorted(scan: RootScan): Record<string, string[]> {
  return {
    gitDirs: scan.gitDirs.map((entry) => `${entry.gitDir} ${entry.workTree ?? '-'}`).sort(),
    gitFiles: [...scan.gitFiles].sort(),
    settings: [...scan.settings].sort(),
  };
}

const places = ['', 'a', 'a/b', 'c', 'a/b/d', 'node_modules/pkg', 'c/e/f', 'node_modules/pkg/.git'];

type Change =
  | { kind: 'folder' | 'repo' | 'setting' | 'file' | 'remove' | 'linkOutside'; at: number }
  | {
      kind: 'link' | 'move';
      at: number;
      to: number;
    };

/** Makes one change in the root, as an agent's command or the user would (no folder time is moved by hand). */
function change(root: string, outside: string, step: number, made: Change): void {
  const folder = path.join(root, places[made.at % places.length] ?? '');
  mkdirSync(folder, { recursive: true });
  const other = 'to' in made ? path.join(root, places[made.to % places.length] ?? '') : folder;
  mkdirSync(other, { recursive: true });
  switch (made.kind) {
    case 'folder':
      mkdirSync(path.join(folder, `dir${step}`, 'inner'), { recursive: true });
      break;
    case 'repo':
      mkdirSync(path.join(folder, `r${step}`, '.git', 'hooks'), { recursive: true });
      writeFileSync(path.join(folder, `r${step}`, '.git', 'HEAD'), 'ref: refs/heads/main\n');
      break;
    case 'setting':
      mkdirSync(path.join(folder, '.claude'), { recursive: true });
      writeFileSync(path.join(folder, '.mcp.json'), '{}\n');
      break;
    case 'file':
      writeFileSync(path.join(folder, `f${step}`), 'x\n');
      break;
    case 'remove': {
      const victim = readdirSync(folder)[step % Math.max(1, readdirSync(folder).length)];
      if (victim !== undefined) rmSync(path.join(folder, victim), { recursive: true, force: true });
      break;
    }
    case 'linkOutside': {
      // A file of the root gets a second name outside: its folder's times do not change, its links do.
      const file = path.join(folder, `kept${step}`);
      writeFileSync(file, 'x\n');
      linkSync(file, path.join(outside, `o${step}`));
      break;
    }
    case 'link':
      writeFileSync(path.join(folder, `t${step}`), 'x\n');
      linkSync(path.join(folder, `t${step}`), path.join(other, `l${step}`));
      break;
    case 'move': {
      mkdirSync(path.join(folder, `m${step}`, 'deep', '.git'), { recursive: true });
      writeFileSync(path.join(folder, `m${step}`, 'deep', '.git', 'HEAD'), 'ref: refs/heads/main\n');
      const target = path.join(other, `moved${step}`);
      if (!target.startsWith(path.join(folder, `m${step}`))) renameSync(path.join(folder, `m${step}`), target);
      break;
    }
  }
}

const changes: fc.Arbitrary<Change[]> = fc.array(
  fc.oneof(
    fc.record({
      kind: fc.constantFrom('folder', 'repo', 'setting', 'file', 'remove', 'linkOutside'),
      at: fc.nat(30),
    }) as fc.Arbitrary<Change>,
    fc.record({ kind: fc.constantFrom('link', 'move'), at: fc.nat(30), to: fc.nat(30) }) as fc.Arbitrary<Change>,
  ),
  { minLength: 1, maxLength: 10 },
);

describe.runIf(process.platform === 'linux')('RootScanCache fed by the core watcher', () => {
  it('asks the disk again only about folders the watcher does not look inside, until something changes', async () => {
    const { root, cache } = await watchedRoot('quiet');
    for (const folder of ['a/b/c', 'd/e', 'node_modules/x/y']) mkdirSync(path.join(root, folder), { recursive: true });
    await cache.list(root);
    await cache.list(root);
    const before = cache.folderChecks;
    await cache.list(root);
    // node_modules, node_modules/x, node_modules/x/y: the watcher does not look inside dependencies.
    expect(cache.folderChecks - before).toBe(3);
    mkdirSync(path.join(root, 'd', 'e', '.claude'));
    const listing = await cache.list(root);
    expect(listing.settings).toContain(path.join(root, 'd', 'e', '.claude'));
  });

  it('asks the disk at every look about a folder the watcher could not watch and everything below it', async () => {
    const { root, tracked, cache } = await watchedRoot('unwatched');
    for (const folder of ['a/b/c/d', 'a/e']) mkdirSync(path.join(root, folder), { recursive: true });
    await cache.list(root);
    // As when a folder's watch failed (permission denied): each checkpoint walks it, and no event vouches for it.
    tracked.walkedPaths.set('a/b', 'permission denied');
    await cache.list(root);
    const before = cache.folderChecks;
    await cache.list(root);
    expect(cache.folderChecks - before).toBe(3); // a/b, a/b/c, a/b/c/d
    tracked.walkedPaths.clear();
    await cache.list(root);
    const quiet = cache.folderChecks;
    await cache.list(root);
    expect(cache.folderChecks - quiet).toBe(0);
  });

  it('asks the disk about every folder again once the watcher may have missed changes', async () => {
    const { root, tracked, cache } = await watchedRoot('lost');
    for (const folder of ['a/b/c', 'd/e']) mkdirSync(path.join(root, folder), { recursive: true });
    await cache.list(root);
    await cache.list(root);
    watchers.feed.lost(tracked);
    const before = cache.folderChecks;
    await cache.list(root);
    expect(cache.folderChecks - before).toBe(folderCount(root));
  });

  it('finds after any changes what a full look finds: repositories, .git files, settings; links outside at least as many', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(changes, async (made) => {
        run += 1;
        const { root, cache } = await watchedRoot(`root${run}`);
        const outside = path.join(base, `outside${run}`);
        mkdirSync(outside);
        await cache.list(root);
        for (const [step, each] of made.entries()) {
          change(root, outside, step, each);
          const cached = await scanRoots([root], 'linux', cache);
          const full = await scanRoots([root], 'linux');
          expect(sorted(cached)).toEqual(sorted(full));
          // A link count changed through another name reaches no watch of the folder (nor its times): never fewer, maybe more.
          expect(cached.linkedOutside).toEqual(expect.arrayContaining([...full.linkedOutside]));
        }
      }),
      { numRuns: 20 },
    );
  });
});
