import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { DirState } from './dir-state';
import { smudgeRacyRecords } from './folder-listing';
import { SavedFolder } from './saved-folder';
import { saveStatCache } from './stat-cache';
import { hashObject } from '../../git-store/git-objects';
import { fakeRecord as record } from '../test-support/file-records';
import { PackWriter } from '../../git-store/pack-writer';
import { git } from '../test-support/store-fixtures';

/** The same tree of 300 files in 12 folders (and a few skips), built into `state`. */
async function fill(state: DirState): Promise<void> {
  for (let index = 0; index < 300; index += 1)
    state.setFile(`t${index % 3}/l${index % 4}/f${index}.txt`, record(index));
  state.setSkipped('node_modules', 'excluded', true);
  state.setSkipped('t1/big.bin', 'oversize', false);
  await state.buildTree(() => Promise.resolve());
  state.head = 'c'.repeat(40);
}

/** Whether every folder of `state` is held in the stat cache's columns, its files never decoded. */
function isCompact(state: DirState): boolean {
  return [...state.nodes()].every(([, node]) => node instanceof SavedFolder && node.isFilesSaved);
}

describe('a resident state compacted into its stat cache columns', () => {
  let base: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-compact-'));
  });
  afterEach(async () => {
    await remove();
  });

  it('reads, changes, builds and saves exactly as the object form it replaced, and reading leaves it compact', async () => {
    const compacted = new DirState();
    const twin = new DirState();
    await fill(compacted);
    await fill(twin);
    await saveStatCache(path.join(base, 'first'), '/project', compacted, { compact: true });
    expect(isCompact(compacted)).toBe(true);

    // Reads of every kind (a verification walk's, the stats', a listing's) decode nothing for good.
    expect([...compacted.files()]).toEqual([...twin.files()]);
    expect(compacted.peek('t1/l2')?.files).toEqual(twin.peek('t1/l2')?.files);
    expect(compacted.names('t1').sort()).toEqual(twin.names('t1').sort());
    expect(compacted.skippedPaths()).toEqual(twin.skippedPaths());
    expect([...compacted.folders()]).toEqual([...twin.folders()]);
    expect(compacted.fileCount).toBe(300);
    expect(isCompact(compacted)).toBe(true);

    // A change decodes only its folder; the trees built after it are git's same trees.
    for (const state of [compacted, twin]) {
      state.setFile('t0/l0/f0.txt', record(0, 1));
      state.remove('t2/l3/f11.txt');
      state.setFile('t1/new/g.txt', record(999));
    }
    const trees = await Promise.all([compacted, twin].map((state) => state.buildTree(() => Promise.resolve())));
    expect(trees[0]).toBe(trees[1]);
    expect(compacted.file('t0/l0/f0.txt')).toEqual(record(0, 1));
    expect(compacted.file('t2/l1/f9.txt')).toEqual(twin.file('t2/l1/f9.txt'));

    // Saved again (untouched folders copied from the columns), byte for byte the object form's cache.
    await saveStatCache(path.join(base, 'compacted'), '/project', compacted, { compact: true });
    await saveStatCache(path.join(base, 'twin'), '/project', twin);
    expect(readFileSync(path.join(base, 'compacted')).equals(readFileSync(path.join(base, 'twin')))).toBe(true);
    expect(isCompact(compacted)).toBe(true);
  });

  it('leaves the folders of racy records as objects, so that the next snapshot still smudges them', async () => {
    const state = new DirState();
    await fill(state);
    const racy = state.file('t1/l1/f1.txt');
    if (racy === undefined) throw new Error('no record');
    await saveStatCache(path.join(base, 'cache'), '/project', state, {
      compact: true,
      keepFolders: new Set(['t1/l1']),
    });
    expect(state.node('t1/l1')).not.toBeInstanceOf(SavedFolder);
    expect(state.node('t1/l2')).toBeInstanceOf(SavedFolder);
    await smudgeRacyRecords(state, new Map([['t1/l1/f1.txt', racy]]));
    expect(state.file('t1/l1/f1.txt')?.ctimeNs).toBe(-1n);
    expect(state.file('t1/l1/f13.txt')?.ctimeNs).toBe(record(13).ctimeNs);
  });
});

describe('a pack bigger than what the writer keeps in memory', () => {
  let base: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-bigpack-'));
  });
  afterEach(async () => {
    await remove();
  });

  it('is checksummed by reading it back, and git verifies it', async () => {
    const gitdir = path.join(base, 'store');
    git(['init', '--quiet', '--bare', gitdir]);
    const packDir = path.join(gitdir, 'objects/pack');
    await mkdir(packDir, { recursive: true });
    const writer = await PackWriter.create(packDir, 0);
    // 20 MiB of random (incompressible) content: past the 16 MiB the writer keeps.
    for (let index = 0; index < 20; index += 1) {
      const content = randomBytes(1 << 20);
      await writer.add('blob', content, hashObject('blob', content));
    }
    const small = Buffer.from('small\n');
    await writer.add('blob', small, hashObject('blob', small));
    const written = await writer.finish();
    expect(written?.bytes).toBeGreaterThan(20 << 20);
    const idx = (await readdir(packDir)).find((name) => name.endsWith('.idx'));
    expect(git(['--git-dir', gitdir, 'verify-pack', path.join(packDir, idx ?? 'missing')])).toBe('');
    expect(git(['--git-dir', gitdir, 'cat-file', '-p', hashObject('blob', small)])).toBe('small');
  });
});
