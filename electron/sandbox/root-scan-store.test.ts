import { mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { scanRoots, type RootScan } from './root-scan';
import { RootScanCache } from './root-scan-cache';
import { fileRootScanStore, type RootScanStore } from './root-scan-store';

/**
 * One-shot commands keep their look at the roots in Vigil's data folder (root-scan-store.ts): each
 * new process (a new cache over the same store) must find what a full look finds, after any change
 * made between processes, and must never trust a file it did not write.
 */
let base: string;
let remove: () => Promise<void>;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-scan-store-'));
});

afterEach(async () => {
  await remove();
});

/** A clock ahead of the file system's: every folder's times look old, so the cache trusts them (the racy window is off). */
const aheadClock = (): number => Date.now() + 60_000;
let tick = 1_000_000_000;

/** Gives a folder a time no earlier step gave it (the test changes folders faster than a timestamp tick). */
function moved(folder: string): void {
  tick += 1;
  utimesSync(folder, tick, tick);
}

function sorted(scan: RootScan): Record<string, string[]> {
  return {
    gitDirs: scan.gitDirs.map((entry) => `${entry.gitDir} ${entry.workTree ?? '-'}`).sort(),
    gitFiles: [...scan.gitFiles].sort(),
    settings: [...scan.settings].sort(),
  };
}

const places = ['', 'a', 'a/b', 'c', 'node_modules/pkg/lib'];
type Change = { readonly kind: 'repo' | 'gitFile' | 'setting' | 'folder'; readonly at: number };

/** One change a command could make between two processes, the times of the folders it touched moved on. */
function change(root: string, step: number, { kind, at }: Change): void {
  const folder = path.join(root, places[at % places.length] ?? '');
  mkdirSync(folder, { recursive: true });
  if (kind === 'repo') {
    mkdirSync(path.join(folder, `r${step}`, '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(folder, `r${step}`, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    moved(path.join(folder, `r${step}`, '.git'));
    moved(path.join(folder, `r${step}`));
  } else if (kind === 'gitFile') {
    mkdirSync(path.join(folder, `w${step}`));
    writeFileSync(path.join(folder, `w${step}`, '.git'), `gitdir: ${path.join(root, '.git')}\n`);
    moved(path.join(folder, `w${step}`));
  } else if (kind === 'setting') writeFileSync(path.join(folder, '.mcp.json'), '{}\n');
  else mkdirSync(path.join(folder, `d${step}`));
  for (let current = folder; current.startsWith(root); current = path.dirname(current)) moved(current);
}

/** A new process's cache over the store the earlier ones wrote. */
const nextProcess = (store: RootScanStore): RootScanCache => new RootScanCache({ now: aheadClock, store });

describe.runIf(process.platform === 'linux')('the scan store of one-shot commands', () => {
  it('lets each new process find what a full look finds, after any change made between processes', async () => {
    let run = 0;
    const changes = fc.array(
      fc.record({
        kind: fc.constantFrom('repo', 'gitFile', 'setting', 'folder'),
        at: fc.nat(10),
      }),
      { minLength: 1, maxLength: 8 },
    );
    await fc.assert(
      fc.asyncProperty(changes, async (steps) => {
        run += 1;
        const root = path.join(base, `root${run}`);
        mkdirSync(root);
        const store = fileRootScanStore(path.join(base, `store${run}`));
        await scanRoots([root], 'linux', nextProcess(store));
        for (const [step, each] of steps.entries()) {
          change(root, step, each);
          const cached = await scanRoots([root], 'linux', nextProcess(store));
          expect(sorted(cached)).toEqual(sorted(await scanRoots([root], 'linux')));
        }
      }),
      { numRuns: 15 },
    );
  });

  it('lets a later process read only the folders that changed', async () => {
    const root = path.join(base, 'root');
    for (const folder of ['a/b/c', 'd/e', 'node_modules/x/y']) mkdirSync(path.join(root, folder), { recursive: true });
    const folders = [root, ...readdirSync(root, { recursive: true }).map((entry) => path.join(root, String(entry)))];
    for (const folder of folders) moved(folder);
    const store = fileRootScanStore(path.join(base, 'store'));
    const first = nextProcess(store);
    await first.list(root);
    expect(first.folderReads).toBe(folders.length);
    const second = nextProcess(store);
    await second.list(root);
    expect(second.folderReads).toBe(0);
    mkdirSync(path.join(root, 'd', 'e', '.claude'));
    moved(path.join(root, 'd', 'e'));
    const third = nextProcess(store);
    expect((await third.list(root)).settings).toEqual([path.join(root, 'd', 'e', '.claude')]);
    expect(third.folderReads).toBe(2);
  });

  it("is not rewritten when the folders read again hold what they held (as after bubblewrap's mount points)", async () => {
    const root = path.join(base, 'root');
    mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    const folder = path.join(base, 'store');
    const store = fileRootScanStore(folder);
    await nextProcess(store).list(root);
    const [file = ''] = readdirSync(folder);
    const written = statSync(path.join(folder, file)).ino;
    // A command's sandbox made a mount point at the root and removed it: the root's times moved, nothing else.
    mkdirSync(path.join(root, '.claude'));
    rmdirSync(path.join(root, '.claude'));
    moved(root);
    const unchanged = nextProcess(store);
    expect((await unchanged.list(root)).settings).toEqual([]);
    expect(unchanged.folderReads).toBe(1);
    expect(statSync(path.join(folder, file)).ino).toBe(written);
    // The next process reads the root again (its stored times are old) and finds what is new there.
    mkdirSync(path.join(root, '.claude'));
    moved(root);
    const changed = nextProcess(store);
    expect((await changed.list(root)).settings).toEqual([path.join(root, '.claude')]);
    expect(changed.folderReads).toBe(2);
    expect(statSync(path.join(folder, file)).ino).not.toBe(written);
    const after = nextProcess(store);
    expect((await after.list(root)).settings).toEqual([path.join(root, '.claude')]);
    expect(after.folderReads).toBe(0);
  });

  it('never trusts a file it did not write for that root: the root is listed anew', async () => {
    const root = path.join(base, 'root');
    mkdirSync(path.join(root, 'sub', '.git'), { recursive: true });
    writeFileSync(path.join(root, 'sub', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const folder = path.join(base, 'store');
    const store = fileRootScanStore(folder);
    await nextProcess(store).list(root);
    const [file = ''] = readdirSync(folder);
    const stored = JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as Record<string, unknown>;
    const folders = stored.folders as [string, { subfolders: string[]; listing: Record<string, unknown> }][];
    const [[, top] = ['', { subfolders: [], listing: {} }]] = folders.filter(([folder]) => folder === root);
    const outside = path.join(base, 'outside');
    mkdirSync(path.join(outside, '.git'), { recursive: true });
    const forgeries = [
      'not json',
      'null',
      JSON.stringify(stored).slice(0, 100),
      JSON.stringify({ ...stored, version: 0 }),
      JSON.stringify({ ...stored, root: path.join(base, 'elsewhere') }),
      JSON.stringify({ ...stored, folders: [[root, { mtimeMs: 'x' }]] }),
      JSON.stringify({ ...stored, folders: [[root, { ...top, listing: { ...top.listing, dotGits: [null] } }]] }),
      JSON.stringify({ ...stored, folders: [[root, { ...top, subfolders: [...top.subfolders, outside] }]] }),
    ];
    for (const forged of forgeries) {
      writeFileSync(path.join(folder, file), forged);
      const cache = nextProcess(store);
      const listing = await cache.list(root);
      expect(listing.dotGits).toEqual([{ path: path.join(root, 'sub', '.git'), isFolder: true }]);
      expect(cache.folderReads).toBeGreaterThanOrEqual(3);
    }
  });
});
