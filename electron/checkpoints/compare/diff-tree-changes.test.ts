import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { createPathScope } from './diff-path-scope';
import { diffTrees, lookupPath, type TreeReader } from './diff-tree-changes';
import { gitCommit, initBareStore, isoTreeReader, runGit, treeOf, writeFiles } from '../test-support/restore-fixtures';

let root: string;
let remove: () => Promise<void>;
let store: string;
let dir: string;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-diff-tree-'));
  store = path.join(root, 'store');
  dir = path.join(root, 'work');
  initBareStore(store);
});
afterEach(async () => {
  await remove();
});

/** Counts the trees a reader is asked for, to prove that equal subtrees are never read. */
function countingReader(inner: TreeReader): TreeReader & { reads: number } {
  const counter = {
    reads: 0,
    readTree: (oid: string) => {
      counter.reads += 1;
      return inner.readTree(oid);
    },
  };
  return counter;
}

/** git's own `diff-tree -r --name-status` between two commits, as "S path" lines. */
function gitNameStatus(a: string, b: string): string[] {
  const out = runGit(['--git-dir', store, 'diff-tree', '-r', '--no-renames', '--name-status', a, b]);
  return out === '' ? [] : out.split('\n').map((line) => line.replace('\t', ' '));
}

const letter = { added: 'A', deleted: 'D', modified: 'M', 'type-changed': 'T' } as const;

describe('diffTrees', () => {
  it('finds exactly the files git finds, reading only the subtrees that differ', async () => {
    const files: Record<string, string> = {};
    for (let top = 0; top < 10; top += 1)
      for (let file = 0; file < 20; file += 1) files[`d${top}/sub/f${file}.txt`] = `${top}-${file}\n`;
    writeFiles(dir, {
      ...files,
      'keep.txt': 'k\n',
      'exe.sh': { content: '#!/bin/sh\n', mode: 0o644 },
      link: { symlink: 'keep.txt' },
      x: 'file\n',
    });
    const first = gitCommit(store, dir, 'first');
    writeFiles(dir, {
      'd3/sub/f1.txt': 'changed\n',
      'd3/new.txt': 'new\n',
      'exe.sh': { content: '#!/bin/sh\n', mode: 0o755 },
      link: 'now a file\n',
      x: { symlink: 'keep.txt' },
    });
    rmSync(path.join(dir, 'd7/sub/f2.txt'));
    const second = gitCommit(store, dir, 'second');

    const reader = countingReader(isoTreeReader(store));
    const changes = await diffTrees(reader, treeOf(store, first), treeOf(store, second), createPathScope());
    const ours = changes.map((change) => {
      const status =
        change.old === undefined
          ? 'added'
          : change.new === undefined
            ? 'deleted'
            : (change.old.mode === '120000') !== (change.new.mode === '120000')
              ? 'type-changed'
              : 'modified';
      return `${letter[status]} ${change.path}`;
    });
    expect(ours).toEqual(gitNameStatus(first, second));
    expect(ours).toContain('M exe.sh');
    expect(ours).toContain('T link');
    // root + d3 + d3/sub + d7 + d7/sub, each on both sides: the 8 unchanged top folders are never read.
    expect(reader.reads).toBe(10);
  });

  it('splits a file that became a folder into the file and everything under the folder', async () => {
    writeFiles(dir, { a: 'file\n', 'b/c.txt': 'c\n' });
    const first = gitCommit(store, dir, 'first');
    rmSync(path.join(dir, 'a'));
    rmSync(path.join(dir, 'b'), { recursive: true });
    writeFiles(dir, { 'a/inner.txt': 'inner\n', b: 'now a file\n' });
    const second = gitCommit(store, dir, 'second');
    const changes = await diffTrees(
      isoTreeReader(store),
      treeOf(store, first),
      treeOf(store, second),
      createPathScope(),
    );
    expect(changes.map((change) => [change.path, change.old !== undefined, change.new !== undefined])).toEqual([
      ['a', true, false],
      ['a/inner.txt', false, true],
      ['b', false, true],
      ['b/c.txt', true, false],
    ]);
  });

  it('limits the walk to a scope of files and folders', async () => {
    writeFiles(dir, { 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'lib/c.ts': 'c\n', 'top.md': 't\n' });
    const first = gitCommit(store, dir, 'first');
    writeFiles(dir, { 'src/a.ts': 'A\n', 'src/b.ts': 'B\n', 'lib/c.ts': 'C\n', 'top.md': 'T\n' });
    const second = gitCommit(store, dir, 'second');
    const reader = countingReader(isoTreeReader(store));
    const scoped = await diffTrees(
      reader,
      treeOf(store, first),
      treeOf(store, second),
      createPathScope(['src/b.ts', 'top.md']),
    );
    expect(scoped.map((change) => change.path)).toEqual(['src/b.ts', 'top.md']);
    expect(reader.reads).toBe(4);
    const folder = await diffTrees(
      isoTreeReader(store),
      treeOf(store, first),
      treeOf(store, second),
      createPathScope(['lib']),
    );
    expect(folder.map((change) => change.path)).toEqual(['lib/c.ts']);
  });

  it('gives for named paths exactly the changes of the whole diff they cover, looking only at the names on their way', async () => {
    const files: Record<string, string> = {};
    for (let top = 0; top < 4; top += 1)
      for (let file = 0; file < 6; file += 1) files[`t${top}/l/f${file}.txt`] = `${top}-${file}\n`;
    writeFiles(dir, { ...files, 'x/inner.txt': 'x\n', y: 'y\n' });
    const first = gitCommit(store, dir, 'first');
    for (const name of Object.keys(files)) writeFiles(dir, { [name]: `changed ${name}\n` });
    rmSync(path.join(dir, 'x'), { recursive: true });
    rmSync(path.join(dir, 'y'));
    writeFiles(dir, { x: 'now a file\n', 'y/inner.txt': 'now a folder\n', 't2/l/new.txt': 'new\n' });
    const second = gitCommit(store, dir, 'second');
    const reader = isoTreeReader(store);
    const whole = await diffTrees(reader, treeOf(store, first), treeOf(store, second), createPathScope());
    const scope = createPathScope(['t0/l/f1.txt', 't0/l/f4.txt', 't2/l', 't3/l/missing.txt', 'x', 'y/inner.txt']);
    expect(scope.namedIn('')).toEqual(new Set(['t0', 't2', 't3', 'x', 'y']));
    expect(scope.namedIn('t0/l')).toEqual(new Set(['f1.txt', 'f4.txt']));
    expect(scope.namedIn('t2/l')).toBeUndefined();
    expect(createPathScope().namedIn('')).toBeUndefined();
    const scoped = await diffTrees(reader, treeOf(store, first), treeOf(store, second), scope);
    expect(scoped).toEqual(whole.filter((change) => scope.covers(change.path)));
    expect(scoped.map((change) => change.path)).toEqual([
      't0/l/f1.txt',
      't0/l/f4.txt',
      't2/l/f0.txt',
      't2/l/f1.txt',
      't2/l/f2.txt',
      't2/l/f3.txt',
      't2/l/f4.txt',
      't2/l/f5.txt',
      't2/l/new.txt',
      'x',
      'x/inner.txt',
      'y/inner.txt',
    ]);
  });

  it('treats a missing side as the empty tree, and equal trees as no change', async () => {
    writeFiles(dir, { 'a.txt': 'a\n', 'z/b.txt': 'b\n' });
    const tree = treeOf(store, gitCommit(store, dir, 'only'));
    const added = await diffTrees(isoTreeReader(store), undefined, tree, createPathScope());
    expect(added.map((change) => [change.path, change.old, change.new?.mode])).toEqual([
      ['a.txt', undefined, '100644'],
      ['z/b.txt', undefined, '100644'],
    ]);
    expect(await diffTrees(isoTreeReader(store), tree, tree, createPathScope())).toEqual([]);
  });
});

describe('lookupPath', () => {
  it('finds files and folders by path and nothing through a file', async () => {
    writeFiles(dir, { 'a/b/c.txt': 'c\n', f: 'f\n' });
    const tree = treeOf(store, gitCommit(store, dir, 'one'));
    const reader = isoTreeReader(store);
    expect((await lookupPath(reader, tree, 'a/b/c.txt'))?.type).toBe('blob');
    expect((await lookupPath(reader, tree, 'a/b'))?.type).toBe('tree');
    expect(await lookupPath(reader, tree, 'f/x')).toBeUndefined();
    expect(await lookupPath(reader, tree, 'nope')).toBeUndefined();
    expect(await lookupPath(reader, undefined, 'a')).toBeUndefined();
  });
});
