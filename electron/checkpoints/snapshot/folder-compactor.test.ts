import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { DirState } from './dir-state';
import { FolderCompactor } from './folder-compactor';
import { SavedFolder } from './saved-folder';
import { fileModes } from '../../git-store/git-objects';
import { fakeRecord as record } from '../test-support/file-records';
import { created, fsck, gitWriteTree, testService, writeTree } from '../test-support/store-fixtures';

const paths = Array.from({ length: 240 }, (_, index) => `t${index % 3}/l${index % 4}/f${index}.txt`);

/** A first state's folders, as a walk leaves them before hashing (folders made, a skip recorded). */
function walked(): DirState {
  const state = new DirState();
  for (const rel of paths) state.ensureFolder(path.posix.dirname(rel));
  state.setSkipped('t1/big.bin', 'oversize', false);
  return state;
}

describe('a first state built into columns as its files are hashed', () => {
  it('puts a folder into columns once all its results are in, and holds exactly what the object form holds', async () => {
    const compacted = walked();
    const twin = walked();
    const compactor = new FolderCompactor(
      compacted,
      paths.map((rel) => ({ rel, isSymlink: false, mode: fileModes.file })),
    );
    // Results arrive folder after folder; t2/l1's last one is held back.
    const late = paths.filter((rel) => rel.startsWith('t2/l1/')).at(-1) ?? '';
    for (const [index, rel] of paths.entries()) {
      if (rel === late) continue;
      compacted.setFile(rel, record(index));
      twin.setFile(rel, record(index));
      compactor.applied(rel, rel === 't0/l0/f0.txt');
    }
    compactor.flush();
    expect(compacted.node('t2/l1')).not.toBeInstanceOf(SavedFolder);
    // The folder of a racy record stays objects (a later snapshot compares it by identity).
    expect(compacted.node('t0/l0')).not.toBeInstanceOf(SavedFolder);
    expect(compacted.node('t1/l1')).toBeInstanceOf(SavedFolder);
    const lateIndex = paths.indexOf(late);
    compacted.setFile(late, record(lateIndex));
    twin.setFile(late, record(lateIndex));
    compactor.applied(late, false);
    compactor.flush();
    expect(compacted.node('t2/l1')).toBeInstanceOf(SavedFolder);

    const sink = (): Promise<void> => Promise.resolve();
    expect(await compacted.buildTree(sink)).toBe(await twin.buildTree(sink));
    // Building the trees read the folders without decoding them for good.
    expect((compacted.node('t1/l1') as SavedFolder).isFilesSaved).toBe(true);
    expect([...compacted.files()].sort()).toEqual([...twin.files()].sort());
    expect(compacted.skippedPaths()).toEqual(twin.skippedPaths());
    expect(compacted.fileCount).toBe(240);

    // A later change decodes its folder and builds git's same tree.
    for (const state of [compacted, twin]) {
      state.setFile('t1/l1/f1.txt', record(1, 1));
      state.remove('t2/l2/f2.txt');
    }
    expect(await compacted.buildTree(sink)).toBe(await twin.buildTree(sink));
  });
});

describe("a big first checkpoint's state in columns, end to end", () => {
  let base: string;
  let dir: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-first-columns-'));
    dir = path.join(base, 'project');
  });
  afterEach(async () => {
    await remove();
  });

  it('commits git’s tree and counts every line, and later checkpoints of the same process see every change', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 400; index += 1)
      files[`t${index % 20}/l${index % 4}/f${index}.txt`] = `file ${index}\n`.repeat(1 + (index % 3));
    writeTree(dir, files);
    const service = testService(path.join(base, 'home', 'checkpoints'), { workers: 2, workerThreshold: 1 });
    try {
      const first = created(await service.checkpoint(dir, { reason: 'first' }));
      expect(first.tree).toBe(gitWriteTree(path.join(base, 'shadow-1'), dir));
      const lines = Object.values(files).reduce((sum, text) => sum + text.split('\n').length - 1, 0);
      expect(first.stats).toEqual({ files: 400, insertions: lines, deletions: 0 });
      writeFileSync(path.join(dir, 't3/l3/f3.txt'), 'edited\n');
      writeTree(dir, { 'new/n.txt': 'new\n' });
      const second = created(
        await service.checkpoint(dir, { reason: 'second', paths: [path.join(dir, 't3/l3/f3.txt')] }),
      );
      expect(second.tree).toBe(gitWriteTree(path.join(base, 'shadow-2'), dir));
      expect(fsck(service.gitdir)).toBe('');
    } finally {
      await service.dispose();
    }
  });
});
