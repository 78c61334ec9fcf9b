import { linkSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { scanRoots, type RootScan } from './root-scan';
import { RootScanCache } from './root-scan-cache';

let base: string;
let remove: () => Promise<void>;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-scan-cache-'));
});

afterEach(async () => {
  await remove();
});

/** A clock ahead of the file system's: every folder's times look old, so the cache trusts them (the racy window is off). */
const aheadClock = (): number => Date.now() + 60_000;

let tick = 1_000_000_000;

/**
 * Gives a folder a time no earlier step gave it, as a coarse clock would once it moved on: the
 * test makes its changes faster than a timestamp tick, which in real use the racy window covers.
 */
function moved(folder: string): void {
  tick += 1;
  utimesSync(folder, tick, tick);
}

function allFolders(root: string): string[] {
  const out = [root];
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true }))
    if (entry.isDirectory()) out.push(path.join(entry.parentPath, entry.name));
  return out;
}

type Operation =
  | { kind: 'folder' | 'repo' | 'gitFile' | 'setting' | 'settingFolder' | 'file' | 'remove'; at: number }
  | { kind: 'link' | 'linkOutside' | 'rename'; at: number; to: number };

const places = ['', 'a', 'a/b', 'c', 'a/b/d', 'node_modules/pkg', 'c/e/f'];
const settingFiles = ['.mcp.json', '.envrc'];
const settingFolders = ['.claude', '.vscode', '.husky'];

function place(root: string, at: number): string {
  return path.join(root, places[at % places.length] ?? '');
}

/** Applies one change and moves the times of the folders whose entries it changed. */
function apply(root: string, outside: string, step: number, operation: Operation): void {
  const folder = place(root, operation.at);
  mkdirSync(folder, { recursive: true });
  const name = (prefix: string): string => path.join(folder, `${prefix}${step}`);
  switch (operation.kind) {
    case 'folder':
      mkdirSync(name('dir'));
      break;
    case 'repo':
      if (!statSync(path.join(folder, '.git'), { throwIfNoEntry: false })?.isDirectory())
        rmSync(path.join(folder, '.git'), { force: true });
      mkdirSync(path.join(folder, '.git', 'hooks'), { recursive: true });
      writeFileSync(path.join(folder, '.git', 'HEAD'), 'ref: refs/heads/main\n');
      moved(path.join(folder, '.git'));
      break;
    case 'gitFile':
      rmSync(path.join(folder, '.git'), { recursive: true, force: true });
      writeFileSync(path.join(folder, '.git'), `gitdir: ${path.join(root, '.git')}\n`);
      break;
    case 'setting':
      writeFileSync(path.join(folder, settingFiles[step % settingFiles.length] ?? '.envrc'), 'x\n');
      break;
    case 'settingFolder': {
      const settings = path.join(folder, settingFolders[step % settingFolders.length] ?? '.claude');
      mkdirSync(settings, { recursive: true });
      writeFileSync(path.join(settings, 'settings.json'), '{}\n');
      moved(settings);
      break;
    }
    case 'file':
      writeFileSync(name('f'), 'x\n');
      break;
    case 'remove': {
      const entries = readdirSync(folder);
      const victim = entries[step % Math.max(1, entries.length)];
      if (victim !== undefined) rmSync(path.join(folder, victim), { recursive: true, force: true });
      break;
    }
    case 'link': {
      const target = name('t');
      writeFileSync(target, 'x\n');
      const other = place(root, operation.to);
      mkdirSync(other, { recursive: true });
      linkSync(target, path.join(other, `l${step}`));
      moved(other);
      break;
    }
    case 'linkOutside': {
      const target = path.join(outside, `o${step}`);
      writeFileSync(target, 'x\n');
      linkSync(target, name('lo'));
      break;
    }
    case 'rename': {
      const source = name('r');
      mkdirSync(path.join(source, '.claude'), { recursive: true });
      const other = place(root, operation.to);
      mkdirSync(other, { recursive: true });
      renameSync(source, path.join(other, `moved${step}`));
      moved(other);
      break;
    }
  }
  // The folders on the way were made (or not) by mkdir: each gets a new time too, as a real clock gives.
  for (let current = folder; current.startsWith(root); current = path.dirname(current)) moved(current);
}

function sorted(scan: RootScan): Record<string, string[]> {
  return {
    gitDirs: scan.gitDirs.map((entry) => `${entry.gitDir} ${entry.workTree ?? '-'}`).sort(),
    gitFiles: [...scan.gitFiles].sort(),
    settings: [...scan.settings].sort(),
  };
}

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('folder', 'repo', 'gitFile', 'setting', 'settingFolder', 'file', 'remove'),
    at: fc.nat(20),
  }) as fc.Arbitrary<Operation>,
  fc.record({
    kind: fc.constantFrom('link', 'linkOutside', 'rename'),
    at: fc.nat(20),
    to: fc.nat(20),
  }) as fc.Arbitrary<Operation>,
);

describe.runIf(process.platform === 'linux')('RootScanCache', () => {
  it('finds after every change what a full look finds: repositories, .git files, settings; links outside at least as many', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), async (operations) => {
        run += 1;
        const root = path.join(base, `root${run}`);
        const outside = path.join(base, `outside${run}`);
        mkdirSync(root);
        mkdirSync(outside);
        const cache = new RootScanCache({ now: aheadClock });
        for (const [step, change] of operations.entries()) {
          await scanRoots([root], 'linux', cache);
          apply(root, outside, step, change);
          const cached = await scanRoots([root], 'linux', cache);
          const full = await scanRoots([root], 'linux');
          expect(sorted(cached)).toEqual(sorted(full));
          expect(cached.linkedOutside).toEqual(expect.arrayContaining([...full.linkedOutside]));
        }
      }),
      { numRuns: 25 },
    );
  });

  it('reads again only the folders that changed', async () => {
    const root = path.join(base, 'root');
    for (const folder of ['a/b/c', 'd/e', 'node_modules/x/y']) mkdirSync(path.join(root, folder), { recursive: true });
    for (const folder of allFolders(root)) moved(folder);
    const cache = new RootScanCache({ now: aheadClock });
    await cache.list(root);
    const first = cache.folderReads;
    expect(first).toBe(allFolders(root).length);
    await cache.list(root);
    expect(cache.folderReads).toBe(first);
    mkdirSync(path.join(root, 'd', 'e', '.claude'));
    moved(path.join(root, 'd', 'e'));
    const listing = await cache.list(root);
    expect(listing.settings).toContain(path.join(root, 'd', 'e', '.claude'));
    // The changed folder and the new one.
    expect(cache.folderReads).toBe(first + 2);
  });

  it('reads a folder again while its last change is too recent to tell a later one in the same clock tick', async () => {
    const root = path.join(base, 'root');
    mkdirSync(path.join(root, 'a'), { recursive: true });
    const cache = new RootScanCache();
    await cache.list(root);
    const first = cache.folderReads;
    // No time moved on: with the system's clock both folders are still within the racy window.
    writeFileSync(path.join(root, 'a', '.envrc'), 'x\n');
    const listing = await cache.list(root);
    expect(listing.settings).toContain(path.join(root, 'a', '.envrc'));
    expect(cache.folderReads).toBe(first + 2);
  });
});
