import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { childEnv, repoRoot, tsxLoader } from '../test-support/run-vigil';
import { RootScanCache } from './root-scan-cache';
import { fileRootScanStore, type RootScanStore } from './root-scan-store';

/**
 * The scan store of one-shot commands ($VIGIL_HOME/sandbox-scans) is bounded and never fails a
 * command: it keeps the most recently used roots that still exist, and a store it cannot read or
 * write only costs a full look at the root.
 */
let base: string;
let remove: () => Promise<void>;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-scan-prune-'));
});

afterEach(async () => {
  await remove();
});

const aheadClock = (): number => Date.now() + 60_000;
const nextProcess = (store: RootScanStore): RootScanCache => new RootScanCache({ now: aheadClock, store });

/** A workspace root holding one repository. */
function makeRoot(name: string): string {
  const root = path.join(base, name);
  mkdirSync(path.join(root, 'sub', '.git'), { recursive: true });
  writeFileSync(path.join(root, 'sub', '.git', 'HEAD'), 'ref: refs/heads/main\n');
  return root;
}

/** The roots the store holds a file for, by what each file says. */
function storedRoots(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .map((name) => (JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as { root: string }).root)
    .sort();
}

/** Sets every stored file's time, oldest first in `roots` order, well in the past. */
function aged(folder: string, roots: readonly string[]): void {
  for (const name of readdirSync(folder).filter((each) => each.endsWith('.json'))) {
    const { root } = JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as { root: string };
    const seconds = Date.now() / 1000 - 3600 + roots.indexOf(root) * 60;
    utimesSync(path.join(folder, name), seconds, seconds);
  }
}

describe.runIf(process.platform === 'linux')('the bound on the scan store', () => {
  it('keeps the most recently used roots: a root used again outlives one that was not', async () => {
    const folder = path.join(base, 'scans');
    const store = fileRootScanStore(folder, { maxFiles: 2 });
    const [one, two, three] = [makeRoot('one'), makeRoot('two'), makeRoot('three')];
    await nextProcess(store).list(one);
    await nextProcess(store).list(two);
    aged(folder, [one, two]);
    const again = nextProcess(store);
    await again.list(one);
    expect(again.folderReads).toBe(0);
    await nextProcess(store).list(three);
    expect(storedRoots(folder)).toEqual([one, three].sort());
  });

  it('drops the files of roots that no longer exist, and temp files a crashed writer left', async () => {
    const folder = path.join(base, 'scans');
    const store = fileRootScanStore(folder);
    const [gone, kept] = [makeRoot('gone'), makeRoot('kept')];
    await nextProcess(store).list(gone);
    await nextProcess(store).list(kept);
    rmSync(gone, { recursive: true });
    const stale = path.join(folder, `${'a'.repeat(32)}.json.99.0123abcd.tmp`);
    const live = path.join(folder, `${'b'.repeat(32)}.json.98.4567abcd.tmp`);
    writeFileSync(stale, '{"version":1');
    writeFileSync(live, '{"version":1');
    utimesSync(stale, Date.now() / 1000 - 3600, Date.now() / 1000 - 3600);
    await nextProcess(store).list(makeRoot('new'));
    expect(storedRoots(folder)).toEqual([kept, path.join(base, 'new')].sort());
    expect(readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([path.basename(live)]);
  });
});

describe.runIf(process.platform === 'linux')('a scan store that cannot be used', () => {
  it('never fails a command when the store folder cannot be made: the root is listed anew each time', async () => {
    const folder = path.join(base, 'scans');
    writeFileSync(folder, 'not a folder\n');
    const root = makeRoot('root');
    for (let run = 0; run < 2; run += 1) {
      const cache = nextProcess(fileRootScanStore(folder));
      expect((await cache.list(root)).dotGits).toEqual([{ path: path.join(root, 'sub', '.git'), isFolder: true }]);
      expect(cache.folderReads).toBeGreaterThanOrEqual(3);
    }
  });

  it('keeps the last whole file when a save runs out of room, and leaves no partial file', async () => {
    const folder = path.join(base, 'scans');
    const root = makeRoot('root');
    await nextProcess(fileRootScanStore(folder)).list(root);
    const [file = ''] = readdirSync(folder);
    const before = readFileSync(path.join(folder, file), 'utf8');
    for (let index = 0; index < 40; index += 1) mkdirSync(path.join(root, `folder-with-a-long-name-${String(index)}`));
    // A file-size limit of 1 KiB makes the write fail part-way (EFBIG), as a full disk does (Node ignores SIGXFSZ).
    const script = [
      `import { RootScanCache } from ${JSON.stringify(path.join(repoRoot, 'electron/sandbox/root-scan-cache.ts'))};`,
      `import { fileRootScanStore } from ${JSON.stringify(path.join(repoRoot, 'electron/sandbox/root-scan-store.ts'))};`,
      `const cache = new RootScanCache({ now: () => Date.now() + 60000, store: fileRootScanStore(${JSON.stringify(folder)}) });`,
      `const listing = await cache.list(${JSON.stringify(root)});`,
      `console.log(listing.dotGits.length, cache.folderReads);`,
    ].join('\n');
    const command = `ulimit -f 1 && exec "$0" --import "$1" --input-type=module -e "$2"`;
    const { stdout } = await promisify(execFile)('bash', ['-c', command, process.execPath, tsxLoader, script], {
      env: childEnv(),
    });
    expect(stdout.trim()).toBe('1 41');
    expect(before.length).toBeLessThan(1024);
    expect(readdirSync(folder)).toEqual([file]);
    expect(readFileSync(path.join(folder, file), 'utf8')).toBe(before);
  });
});
