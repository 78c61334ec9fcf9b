import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { loadKnownHashes, noKnownHashes } from '../snapshot/known-hashes';
import { createPathScope } from './diff-path-scope';
import { readLiveTree, storedPathExclusion } from './diff-live-tree';
import { diffTrees } from './diff-tree-changes';
import { gitCommit, initBareStore, isoTreeReader, treeOf, writeFiles } from '../test-support/restore-fixtures';

let root: string;
let remove: () => Promise<void>;
let store: string;
let dir: string;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-live-tree-'));
  store = path.join(root, 'store');
  dir = path.join(root, 'work');
  initBareStore(store);
});
afterEach(async () => {
  await remove();
});

const rules = { maxFileBytes: 1024, ignoredFolders: [] as string[] };

describe('readLiveTree', () => {
  it('computes the tree git writes for the stored files, and lists what it left out', async () => {
    writeFiles(dir, {
      'README.md': '# hi\n',
      'src/app.ts': 'export {};\n',
      'src/deep/er/x.ts': 'x\n',
      'bin/run': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
      'link-to-readme': { symlink: 'README.md' },
      dangling: { symlink: 'does/not/exist' },
      'node_modules/dep/index.js': 'module.exports = 1;\n',
      'src/.env.local': 'SECRET=1\n',
      'big.txt': 'x'.repeat(2048),
      'nested/.git/HEAD': 'ref: refs/heads/main\n',
      'nested/code.py': 'print(1)\n',
      'a.png': 'not really a png',
      'src/.app.ts.vigil-tmp-123-0-0123456789ab': 'half written',
    });
    mkdirSync(path.join(dir, 'empty/folder'), { recursive: true });
    const stored = [
      'README.md',
      'bin/run',
      'dangling',
      'link-to-readme',
      'nested/code.py',
      'src/app.ts',
      'src/deep/er/x.ts',
    ];
    const expected = treeOf(store, gitCommit(store, dir, 'expected', stored));

    const live = await readLiveTree(dir, rules, createPathScope());
    expect(live.root).toBe(expected);
    expect(live.skipped).toEqual([
      { path: 'a.png', reason: 'excluded' },
      { path: 'big.txt', reason: 'oversize' },
      { path: 'nested/.git/', reason: 'vcs' },
      { path: 'node_modules/', reason: 'excluded' },
      { path: 'src/.env.local', reason: 'excluded' },
    ]);
    // Equal content gives equal ids, so a diff against the commit reads nothing below the root.
    const changes = await diffTrees(
      { readTree: async (oid) => live.trees.get(oid) ?? isoTreeReader(store).readTree(oid) },
      expected,
      live.root,
      createPathScope(),
    );
    expect(changes).toEqual([]);
  });

  it('walks only what the scope reaches and never enters an ignored folder', async () => {
    writeFiles(dir, { 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'lib/c.ts': 'c\n', 'home/store/objects/x': 'x\n' });
    const scoped = await readLiveTree(dir, rules, createPathScope(['src/b.ts']));
    const expected = treeOf(store, gitCommit(store, dir, 'scoped', ['src/b.ts']));
    expect(scoped.root).toBe(expected);
    const ignoring = await readLiveTree(dir, { ...rules, ignoredFolders: [path.join(dir, 'home')] }, createPathScope());
    expect(ignoring.root).toBe(treeOf(store, gitCommit(store, dir, 'no home', ['src', 'lib'])));
  });

  it('looks up named paths by name when asked, with the same tree, never through a symlinked folder', async () => {
    writeFiles(dir, {
      'src/a.ts': 'a\n',
      'src/b.ts': 'b\n',
      'src/.b.ts.vigil-tmp-123-0-0123456789ab': 'half written',
      'lib/c.ts': 'c\n',
      'lib/d.ts': 'd\n',
      'elsewhere/x.ts': 'x\n',
      'via-link': { symlink: 'elsewhere' },
    });
    const scope = createPathScope(['src/b.ts', 'lib', 'via-link/x.ts', 'src/missing.ts']);
    const listedTemps: string[] = [];
    const listed = await readLiveTree(dir, rules, scope, noKnownHashes, {
      onVigilTemp: (temp) => listedTemps.push(temp),
    });
    const namedTemps: string[] = [];
    const named = await readLiveTree(dir, rules, scope, noKnownHashes, {
      onVigilTemp: (temp) => namedTemps.push(temp),
      isNamedLookup: true,
    });
    // The symlinked folder is not followed either way: x.ts behind it is not in the tree.
    expect(named.root).toBe(treeOf(store, gitCommit(store, dir, 'named', ['src/b.ts', 'lib'])));
    expect(named.root).toBe(listed.root);
    expect(named.skipped).toEqual(listed.skipped);
    // Only the listing of src (which the scope passes through) met its temp file.
    expect(listedTemps).toEqual([path.join(dir, 'src/.b.ts.vigil-tmp-123-0-0123456789ab')]);
    expect(namedTemps).toEqual([]);
  });

  it('gives an empty directory no root', async () => {
    mkdirSync(path.join(dir, 'only/folders'), { recursive: true });
    const live = await readLiveTree(dir, rules, createPathScope());
    expect(live.root).toBeUndefined();
  });
});

describe("readLiveTree with the engine's stat cache", () => {
  it('takes known ids only for files whose stat still matches, so edits are always seen', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 200; index += 1) files[`d${index % 10}/f${index}.txt`] = `content ${index}\n`;
    writeFiles(dir, files);
    const root = path.join(store, '..', 'home', 'checkpoints');
    const engine = new CheckpointService({ root, logger: silentLogger, maxFileBytes: 1024 });
    const first = await engine.checkpoint(dir, { reason: 'one' });
    await engine.dispose();
    if (first.kind !== 'created') throw new Error('no checkpoint');
    const known = await loadKnownHashes(root, dir);
    expect(known).not.toBe(noKnownHashes);
    expect((await readLiveTree(dir, rules, createPathScope(), known)).root).toBe(first.checkpoint.tree);
    // A same-size edit and a new file: the stat differs, so they are read and hashed.
    writeFileSync(path.join(dir, 'd3/f3.txt'), 'CONTENT 3\n');
    writeFiles(dir, { 'd3/new.txt': 'new\n' });
    const expected = treeOf(store, gitCommit(store, dir, 'expected'));
    expect((await readLiveTree(dir, rules, createPathScope(), known)).root).toBe(expected);
    expect((await readLiveTree(dir, rules, createPathScope(), noKnownHashes)).root).toBe(expected);
  });
});

describe('storedPathExclusion', () => {
  it('judges folders on the way and the last name as the kind it is', () => {
    expect(storedPathExclusion('node_modules/a/b.js', false)).toBe('excluded');
    expect(storedPathExclusion('src/.git', true)).toBe('vcs');
    expect(storedPathExclusion('build', false)).toBeUndefined();
    expect(storedPathExclusion('build', true)).toBe('excluded');
    expect(storedPathExclusion('config/.env', false)).toBe('excluded');
    expect(storedPathExclusion('src/app.ts', false)).toBeUndefined();
  });
});
