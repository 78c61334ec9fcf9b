import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { encodeTree, fileModes, hashObject, type TreeItem } from '../../git-store/git-objects';
import { git } from '../test-support/store-fixtures';
import { DirState } from './dir-state';
import { EncodedTrees, patchEncodedTree, type EncodedTree } from './encoded-trees';

const blob = (text: string): string => hashObject('blob', Buffer.from(text));

/** A folder's entries in no particular order, with names whose git order is not their plain order. */
const items: readonly TreeItem[] = [
  { mode: fileModes.file, name: 'b.txt', oid: blob('b') },
  { mode: fileModes.tree, name: 'a', oid: hashObject('tree', encodeTree([])) },
  { mode: fileModes.file, name: 'a.txt', oid: blob('a') },
  { mode: fileModes.executable, name: 'run', oid: blob('run') },
  { mode: fileModes.symlink, name: 'ln', oid: blob('target') },
  { mode: fileModes.file, name: 'é', oid: blob('e') },
  { mode: fileModes.file, name: '😀', oid: blob('smile') },
];

function encoded(entries: readonly TreeItem[]): EncodedTree {
  const trees = new EncodedTrees<string>();
  return trees.encode('folder', entries);
}

function withId(entries: readonly TreeItem[], name: string, oid: string): TreeItem[] {
  return entries.map((item) => (item.name === name ? { ...item, oid } : item));
}

describe('patchEncodedTree', () => {
  it('writes new ids in place: the same bytes as encoding the folder whole', () => {
    const changed = withId(withId(items, 'b.txt', blob('b2')), 'a', blob('not really a tree'));
    const patched = patchEncodedTree(encoded(items), changed);
    expect(patched).toBeDefined();
    expect(patched?.content.equals(encodeTree(changed))).toBe(true);
    expect(patched?.sorted.map((item) => `${item.name}:${item.oid}`)).toEqual(
      encoded(changed).sorted.map((item) => `${item.name}:${item.oid}`),
    );
    // Nothing changed: the same encoding comes back.
    const same = encoded(items);
    expect(patchEncodedTree(same, items)).toBe(same);
  });

  it('leaves the previous encoding untouched', () => {
    const previous = encoded(items);
    const before = Buffer.from(previous.content);
    patchEncodedTree(previous, withId(items, 'run', blob('run2')));
    expect(previous.content.equals(before)).toBe(true);
  });

  it('gives up (the folder is encoded whole) when a name, a mode or the order changed, or an id is not 40 hex digits', () => {
    const previous = encoded(items);
    const cases: TreeItem[][] = [
      [...items, { mode: fileModes.file, name: 'new', oid: blob('n') }],
      items.slice(1),
      items.map((item) => (item.name === 'b.txt' ? { ...item, name: 'c.txt' } : item)),
      items.map((item) => (item.name === 'run' ? { ...item, mode: fileModes.file } : item)),
      // A file that became a folder of the same name.
      items.map((item) => (item.name === 'b.txt' ? { ...item, mode: fileModes.tree } : item)),
      withId(items, 'b.txt', 'zz'.repeat(20)),
      withId(items, 'b.txt', 'abc'),
      [...items].reverse(),
    ];
    for (const entries of cases) expect(patchEncodedTree(previous, entries)).toBeUndefined();
    // Encoded whole instead, as if never built.
    const trees = new EncodedTrees<string>();
    trees.encode('folder', items);
    for (const entries of cases.slice(0, 5))
      expect(trees.encode('folder', entries).content.equals(encodeTree(entries))).toBe(true);
  });
});

describe('EncodedTrees', () => {
  it('keeps the most recently built folders, up to its memory budget', () => {
    const trees = new EncodedTrees<number>();
    // ~45 KB of content a folder: the budget (4 MiB counted three times over) keeps about 30 of them.
    const folder = (seed: number): TreeItem[] =>
      Array.from({ length: 1_000 }, (_, index) => ({
        mode: fileModes.file,
        name: `file-${String(index).padStart(4, '0')}.txt`,
        oid: blob(`${seed}/${index}`),
      }));
    for (let key = 0; key < 300; key += 1) trees.encode(key, folder(key));
    expect(trees.size).toBeGreaterThan(15);
    expect(trees.size).toBeLessThan(60);
    // The newest is kept (patched next time), the oldest gone (encoded whole again, the same bytes either way).
    const changed = withId(folder(299), 'file-0000.txt', blob('new'));
    expect(patchEncodedTree(trees.encode(299, folder(299)), changed)).toBeDefined();
    expect(trees.encode(0, folder(0)).content.equals(encodeTree(folder(0)))).toBe(true);
  });
});

describe('DirState trees built again', () => {
  let base: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-encoded-trees-'));
  });
  afterEach(async () => {
    await remove();
  });

  it('are the trees git writes for the same folders, rebuild after rebuild', async () => {
    const gitdir = `${base}/g.git`;
    git(['init', '--quiet', '--bare', gitdir]);
    const record = (text: string) => ({
      mode: fileModes.file,
      oid: blob(text),
      size: 1,
      mtimeNs: 1n,
      ctimeNs: 1n,
      ino: 1n,
    });
    const state = new DirState();
    for (const folder of ['d0', 'd1', 'd1/deep'])
      for (const name of ['f1.txt', 'f2.txt', 'f10.txt'])
        state.setFile(`${folder}/${name}`, record(`${folder}/${name} v0`));
    const written = new Map<string, Buffer>();
    const build = (): Promise<string> =>
      state.buildTree((content, oid) => {
        written.set(oid, content);
        return Promise.resolve();
      });
    for (const round of [1, 2, 3]) {
      // Content only (patched), then a file added and one removed (encoded whole).
      state.setFile('d1/deep/f2.txt', record(`round ${round}`));
      state.setFile('d0/f10.txt', record(`round ${round} d0`));
      if (round === 3) {
        state.setFile('d0/f3.txt', record('new'));
        state.remove('d1/f1.txt');
      }
      const root = await build();
      for (const [oid, content] of written)
        expect(
          execFileSync('git', ['--git-dir', gitdir, 'hash-object', '-w', '-t', 'tree', '--stdin'], {
            input: content,
            encoding: 'utf8',
          }).trim(),
        ).toBe(oid);
      written.clear();
      const listing = git(['--git-dir', gitdir, 'ls-tree', '-r', '--name-only', root]).trim().split('\n');
      expect(listing).toContain('d1/deep/f2.txt');
      expect(git(['--git-dir', gitdir, 'ls-tree', root, 'd0/f10.txt']).split(/\s/)[2]).toBe(blob(`round ${round} d0`));
      // A state built once from scratch with the same files gives the same root.
      const fresh = new DirState();
      for (const [rel, file] of state.files()) fresh.setFile(rel, file);
      expect(await fresh.buildTree(() => Promise.resolve())).toBe(root);
    }
  });
});
