import { lstatSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempFixture } from '../../test-support/temp-fixture';
import { hashObject, ObjectStore } from '../../git-store';
import { swapFolderForSymlink } from '../test-support/linked-folder-swap';
import { DirState } from './dir-state';
import { FileHasher, type HashResult } from './file-hasher';
import { listedStat, type FolderListing } from './folder-listing';
import { scanFolder, type HashCandidate } from './stat-walk';
import { StoreRules } from './store-rules';
import { walkBlocking } from './walk-blocking';

/*
 * An agent in the sandbox can swap a folder of its workspace for a symlink to a folder the sandbox
 * hides from it (~/.ssh) while a checkpoint walks and reads. Vigil runs outside the sandbox: what it
 * reads through that link must never be listed, read or stored as the workspace's.
 */

const secret = 'SECRET-KEY-do-not-store-7f3c9a\n';

/** A workspace with `src/a.txt` and, outside it, a folder holding a secret file and a symlink with a secret target. */
const fixture = useTempFixture('vigil-walk-swap-', (base) => {
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'hidden');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(root, 'src', 'a.txt'), 'inside\n');
  writeFileSync(path.join(root, 'src', 'id_rsa'), 'the workspace own id_rsa\n');
  symlinkSync('inside-target', path.join(root, 'src', 'link'));
  writeFileSync(path.join(outside, 'id_rsa'), secret);
  writeFileSync(path.join(outside, 'only-outside'), secret);
  symlinkSync('SECRET-LINK-TARGET', path.join(outside, 'link'));
  return { base, root, outside, src: path.join(root, 'src') };
});

/** The rules of a workspace with no repository, calling `onFolder` when a walk classifies the folder `rel` (its parent's listing is read by then). */
function rulesSwappingAt(rel: string, onFolder: () => void): StoreRules {
  let isDone = false;
  const builtIn = StoreRules.builtIn;
  return Object.assign(Object.create(builtIn) as StoreRules, {
    folderExclusion(folder: string, name: string) {
      if (folder === rel && !isDone) {
        isDone = true;
        onFolder();
      }
      return builtIn.folderExclusion(folder, name);
    },
  });
}

const secretOid = hashObject('blob', Buffer.from(secret));
const secretLinkOid = hashObject('blob', Buffer.from('SECRET-LINK-TARGET'));

describe('a walk while the agent swaps a folder for a symlink to a hidden folder', () => {
  it('in a worker (blocking walk), lists nothing from behind the link: the folder is now a link', () => {
    const { root, outside, src } = fixture();
    const listings: FolderListing[] = [];
    const rules = rulesSwappingAt('src', () => swapFolderForSymlink(src, outside));
    walkBlocking(root, '', { ignoredFolders: [], rules }, (batch) => listings.push(...batch));
    const names = listings.flatMap((listing) => listing.entries.map((entry) => `${listing.rel}/${entry.name}`));
    expect(names).not.toContain('src/only-outside');
    const ofSrc = listings.find((listing) => listing.rel === 'src');
    expect(ofSrc?.entries).toEqual([]);
    expect(ofSrc?.outcome).toBe('replaced');
  });

  it('on the main thread, neither lists nor stores anything from behind the link, and stores the link as a link', async () => {
    const { root, outside, src, base } = fixture();
    const state = new DirState();
    const candidates: HashCandidate[] = [];
    const rules = rulesSwappingAt('src', () => swapFolderForSymlink(src, outside));
    await scanFolder({ root, state, maxFileBytes: 1 << 20, ignoredFolders: [], rules }, '', candidates);
    expect(candidates.map((candidate) => candidate.rel)).not.toContain('src/only-outside');
    expect(candidates.find((candidate) => candidate.rel === 'src')?.isSymlink).toBe(true);
    const results = await hashWith(base, root, candidates, false);
    expect(storedOids(results)).not.toContain(secretOid);
  });
});

/** Hashes `items` into a fresh store under `base`, on the main thread or as a worker does. */
async function hashWith(
  base: string,
  root: string,
  items: readonly HashCandidate[],
  isWorker: boolean,
): Promise<HashResult[]> {
  const store = new ObjectStore(path.join(base, `store-${String(isWorker)}`));
  try {
    const hasher = new FileHasher(store, 'loose', isWorker);
    await hasher.begin();
    const results = await hasher.hash({ root, items, maxFileBytes: 1 << 20 });
    await hasher.finish();
    return results;
  } finally {
    await store.close();
  }
}

function storedOids(results: readonly HashResult[]): string[] {
  return results.flatMap((result) => (result.kind === 'stored' ? [result.oid] : []));
}

describe.each([
  { thread: 'the main thread', isWorker: false },
  { thread: 'a worker', isWorker: true },
])('a read for a checkpoint on $thread, after the agent swapped a listed folder for a link', ({ isWorker }) => {
  it('stores neither a file nor a link target from behind it (listed before the swap)', async () => {
    const { root, outside, src, base } = fixture();
    const items = ['id_rsa', 'link', 'a.txt'].map((name): HashCandidate => {
      const stat = listedStat(lstatSync(path.join(src, name), { bigint: true }));
      return { rel: `src/${name}`, isSymlink: stat.isSymlink, mode: stat.mode, listed: stat };
    });
    swapFolderForSymlink(src, outside);
    const results = await hashWith(base, root, items, isWorker);
    expect(storedOids(results)).not.toContain(secretOid);
    expect(storedOids(results)).not.toContain(secretLinkOid);
    expect(results.map((result) => result.kind)).toEqual(['vanished', 'vanished', 'vanished']);
  });

  it('stores nothing from behind it when even the lstat went through the link', async () => {
    const { root, outside, src, base } = fixture();
    swapFolderForSymlink(src, outside);
    const items = ['id_rsa', 'link'].map((name): HashCandidate => {
      const stat = listedStat(lstatSync(path.join(src, name), { bigint: true }));
      return { rel: `src/${name}`, isSymlink: stat.isSymlink, mode: stat.mode, listed: stat };
    });
    const results = await hashWith(base, root, items, isWorker);
    expect(storedOids(results)).toEqual([]);
  });
});
