import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
  unlinkSync,
  rmSync,
  utimesSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import type { CheckpointService } from './checkpoint-service';
import type { CheckpointOutcome } from './checkpoint-types';
import { dirHash } from '../git-store/store-layout';
import { created, fsck, git, gitWriteTree, testService, writeTree } from './test-support/store-fixtures';

describe('checkpoint snapshots', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let service: CheckpointService;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-snap-'));
    dir = path.join(base, 'work');
    mkdirSync(dir);
    service = testService(path.join(base, 'home', 'checkpoints'));
  });
  afterEach(async () => {
    await service.dispose();
    await remove();
  });

  it('stores a tree equal to git write-tree, with git-readable commits and trailers', async () => {
    writeTree(dir, {
      'a.txt': 'hello\nworld\n',
      'a.txt-': 'sorts after a.txt',
      'a/x': 'inside a/',
      a0: 'sorts after a/',
      'src/deep/er/c.md': '# c\n',
      'run.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
      link: { symlink: 'a.txt' },
      dangling: { symlink: 'no/such/file' },
      'ünïcødé/名前.txt': 'utf-8 names\n',
      'empty.txt': '',
      'empty-dir/.keep-not': 'x',
    });
    mkdirSync(path.join(dir, 'really-empty/inside'), { recursive: true });
    const entry = created(
      await service.checkpoint(dir, {
        reason: 'before write_file',
        attribution: { sessionId: 's-1', turn: 3, tool: 'write_file', agent: 'claude' },
      }),
    );
    expect(entry.tree).toBe(gitWriteTree(path.join(base, 'shadow'), dir));
    expect(entry).toMatchObject({
      dir,
      reason: 'before write_file',
      kind: 'checkpoint',
      attribution: { sessionId: 's-1', turn: 3, tool: 'write_file', agent: 'claude' },
    });
    expect(entry.parent).toBeUndefined();
    expect(fsck(service.gitdir)).toBe('');
    const ref = `refs/vigil/${dirHash(dir)}`;
    expect(git(['--git-dir', service.gitdir, 'rev-parse', ref])).toBe(entry.id);
    expect(git(['--git-dir', service.gitdir, 'log', '--format=%s', ref])).toBe('before write_file');
    const trailers = git(['--git-dir', service.gitdir, 'log', '-1', '--format=%(trailers:unfold)', ref]);
    expect(trailers).toContain('Vigil-Session: s-1');
    expect(trailers).toContain('Vigil-Turn: 3');
    expect(trailers).toContain('Vigil-Tool: write_file');
    expect(trailers).toContain('Vigil-Agent: claude');
    expect(trailers).toContain(
      `Vigil-Stats: files=${entry.stats.files} insertions=${entry.stats.insertions} deletions=${entry.stats.deletions}`,
    );
    // The stats match git's own numstat of the first commit.
    const numstat = git(['--git-dir', service.gitdir, 'show', '--numstat', '--format=', ref]).split('\n');
    expect(entry.stats.files).toBe(numstat.length);
    expect(entry.stats.insertions).toBe(numstat.reduce((sum, line) => sum + (Number(line.split('\t')[0]) || 0), 0));
    const registry = JSON.parse(
      readFileSync(path.join(base, 'home/checkpoints/dirs', `${dirHash(dir)}.json`), 'utf8'),
    ) as Record<string, string>;
    expect(registry).toMatchObject({ workdir: dir });
  });

  it('walks a big tree split across the hashing workers, and a later process (stat cache from disk) finds exactly what git finds', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 600; index += 1)
      files[`t${index % 30}/l${index % 4}/f${index}.txt`] = `file ${index}\n`;
    writeTree(dir, { ...files, 'top.txt': 'top\n' });
    const root = path.join(base, 'home', 'checkpoints');
    const first = testService(root, { workers: 3, workerThreshold: 1 });
    try {
      expect(created(await first.checkpoint(dir, { reason: 'first' })).tree).toBe(
        gitWriteTree(path.join(base, 'shadow-1'), dir),
      );
    } finally {
      await first.dispose();
    }
    // Changes in many subtrees, a folder gone, a new one: the next process trusts the cache for the rest.
    writeTree(dir, { 't3/l3/f3.txt': 'edited\n', 't29/l1/f29.txt': 'edited too\n', 'new/deep/n.txt': 'new\n' });
    rmSync(path.join(dir, 't7'), { recursive: true });
    unlinkSync(path.join(dir, 't12/l0/f12.txt'));
    const second = testService(root, { workers: 3, workerThreshold: 1 });
    try {
      const entry = created(await second.checkpoint(dir, { reason: 'second' }));
      expect(entry.tree).toBe(gitWriteTree(path.join(base, 'shadow-2'), dir));
      expect(fsck(second.gitdir)).toBe('');
    } finally {
      await second.dispose();
    }
  });

  it('a one-shot engine made ready for a big tree starts its hashing workers before the checkpoint call', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 200; index += 1) files[`t${index % 10}/f${index}.txt`] = `file ${index}\n`;
    writeTree(dir, files);
    const root = path.join(base, 'home', 'checkpoints');
    const first = testService(root, { workers: 1, workerThreshold: 100 });
    try {
      created(await first.checkpoint(dir, { reason: 'first' }));
    } finally {
      await first.dispose();
    }
    writeTree(dir, { 't3/f3.txt': 'edited\n' });
    // The stat cache now says the tree is big: getting ready starts a worker, with no checkpoint call yet.
    const second = testService(root, { workers: 1, workerThreshold: 100 });
    const started = new Promise<void>((resolve) => process.once('worker', () => resolve()));
    try {
      await second.prepare(dir);
      await started;
      await second.prepare(path.join(base, 'no-such-dir'));
      const entry = created(await second.checkpoint(dir, { reason: 'second' }));
      expect(entry.stats.files).toBe(1);
      expect(entry.tree).toBe(gitWriteTree(path.join(base, 'shadow'), dir));
    } finally {
      await second.dispose();
    }
  });

  it('a later process whose workers compare the walk with the stat cache misses no change', async () => {
    const files: Record<string, string> = { 'top.txt': 'top\n', 'keep/k.txt': 'k\n', 'empty/.keep': '' };
    for (let index = 0; index < 300; index += 1) files[`t${index % 10}/l${index % 3}/f${index}.txt`] = `f ${index}\n`;
    writeTree(dir, files);
    // Old enough not to be racy: every folder the walk sees unchanged is kept in the worker.
    const old = new Date(Date.now() - 60_000);
    for (const rel of Object.keys(files)) utimesSync(path.join(dir, rel), old, old);
    const root = path.join(base, 'home', 'checkpoints');
    const run = async (reason: string): Promise<CheckpointOutcome> => {
      const service = testService(root, { workers: 2, workerThreshold: 1 });
      try {
        return await service.checkpoint(dir, { reason });
      } finally {
        await service.dispose();
      }
    };
    expect(created(await run('first')).tree).toBe(gitWriteTree(path.join(base, 'shadow-1'), dir));
    expect((await run('same')).kind).toBe('unchanged');
    // Same size and mtime, new content: only the ctime and inode tell (a rename over it).
    writeFileSync(path.join(dir, 't1/l1/f1.tmp'), 'F 1\n');
    utimesSync(path.join(dir, 't1/l1/f1.tmp'), old, old);
    renameSync(path.join(dir, 't1/l1/f1.tmp'), path.join(dir, 't1/l1/f1.txt'));
    writeTree(dir, { 't2/l2/new.txt': 'new\n', 'node_modules/x/index.js': 'x\n', 'fresh/a.txt': 'a\n' });
    unlinkSync(path.join(dir, 'keep/k.txt'));
    rmSync(path.join(dir, 't5'), { recursive: true });
    const entry = created(await run('second'));
    expect(entry.tree).toBe(gitWriteTree(path.join(base, 'shadow-2'), dir, ['node_modules/**']));
  });

  it('takes nothing when nothing changed, and records exactly what changed', async () => {
    writeTree(dir, { 'keep.txt': 'same\n', 'edit.txt': 'one\ntwo\nthree\n', 'gone.txt': 'a\nb\n' });
    const first = created(await service.checkpoint(dir, { reason: 'before patch' }));
    expect(await service.checkpoint(dir, { reason: 'before patch' })).toEqual({ kind: 'unchanged', head: first.id });
    writeTree(dir, { 'edit.txt': 'one\n2\nthree\nfour\n', 'new/file.txt': 'n\n' });
    unlinkSync(path.join(dir, 'gone.txt'));
    const second = created(await service.checkpoint(dir, { reason: 'before terminal: rm gone.txt' }));
    expect(second.parent).toBe(first.id);
    const numstat = git(['--git-dir', service.gitdir, 'diff', '--numstat', first.id, second.id]).split('\n');
    const lines = numstat.map((line) => line.split('\t').map((part, index) => (index < 2 ? Number(part) : part)));
    expect(second.stats).toEqual({
      files: lines.length,
      insertions: lines.reduce((sum, [added]) => sum + Number(added), 0),
      deletions: lines.reduce((sum, [, removed]) => sum + Number(removed), 0),
    });
    expect(second.stats).toEqual({ files: 3, insertions: 3, deletions: 3 });
    expect(second.tree).toBe(gitWriteTree(path.join(base, 'shadow'), dir));
    expect(fsck(service.gitdir)).toBe('');
  });

  it('reuses every untouched subtree and writes only the trees on the changed path', async () => {
    for (let folder = 0; folder < 20; folder += 1) {
      for (let file = 0; file < 10; file += 1)
        writeTree(dir, { [`f${folder}/sub/g${file}.txt`]: `${folder}-${file}\n` });
    }
    const first = created(await service.checkpoint(dir, { reason: 'before write_file' }));
    const objectsBefore = git(['--git-dir', service.gitdir, 'count-objects', '-v']);
    writeTree(dir, { 'f7/sub/g3.txt': 'changed\n' });
    const second = created(await service.checkpoint(dir, { reason: 'before write_file' }));
    const lsTree = (commit: string): Map<string, string> =>
      new Map(
        git(['--git-dir', service.gitdir, 'ls-tree', '-r', '-t', commit])
          .split('\n')
          .map((line) => [line.split('\t')[1] ?? '', line.split(' ')[2]?.split('\t')[0] ?? '']),
      );
    const before = lsTree(first.id);
    const after = lsTree(second.id);
    const differing = [...after]
      .filter(([name, oid]) => before.get(name) !== oid)
      .map(([name]) => name)
      .sort();
    expect(differing).toEqual(['f7', 'f7/sub', 'f7/sub/g3.txt']);
    // Objects added: one blob, three trees (f7/sub, f7, root), one commit.
    const objectCount = (text: string): number =>
      Number(/^count: (\d+)$/m.exec(text)?.[1]) + Number(/^in-pack: (\d+)$/m.exec(text)?.[1]);
    expect(objectCount(git(['--git-dir', service.gitdir, 'count-objects', '-v'])) - objectCount(objectsBefore)).toBe(5);
  });

  it('skips and records excluded, oversize and VCS paths, and stores a nested repository as plain files without touching its .git', async () => {
    const small = testService(path.join(base, 'home2', 'checkpoints'), { maxFileBytes: 1000 });
    writeTree(dir, {
      'src/app.ts': 'code\n',
      'node_modules/lib/index.js': 'dep',
      'dist/out.js': 'built',
      '.env': 'SECRET=1',
      '.env.local': 'SECRET=2',
      'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      'big.txt': 'x'.repeat(2000),
      'pkg/__pycache__/m.pyc': 'bytecode',
    });
    mkdirSync(path.join(dir, 'vendor/lib'), { recursive: true });
    git(['init', '--quiet', path.join(dir, 'vendor/lib')]);
    writeTree(dir, { 'vendor/lib/lib.c': 'int main;\n' });
    git(['-C', path.join(dir, 'vendor/lib'), 'add', '.']);
    git(['-C', path.join(dir, 'vendor/lib'), 'commit', '--quiet', '-m', 'nested']);
    const nestedGit = path.join(dir, 'vendor/lib/.git');
    const nestedBefore = readdirSync(nestedGit, { recursive: true }).map(String).sort();
    const nestedHead = readFileSync(path.join(nestedGit, 'HEAD'), 'utf8');
    try {
      const entry = created(await small.checkpoint(dir, { reason: 'before write_file' }));
      expect(entry.skipped).toEqual([
        { path: '.env', reason: 'excluded' },
        { path: '.env.local', reason: 'excluded' },
        { path: 'big.txt', reason: 'oversize' },
        { path: 'dist/', reason: 'excluded' },
        { path: 'logo.png', reason: 'excluded' },
        { path: 'node_modules/', reason: 'excluded' },
        { path: 'pkg/__pycache__/', reason: 'excluded' },
        { path: 'vendor/lib/.git/', reason: 'vcs' },
      ]);
      const stored = git(['--git-dir', small.gitdir, 'ls-tree', '-r', '--name-only', entry.id]).split('\n');
      expect(stored).toEqual(['src/app.ts', 'vendor/lib/lib.c']);
      const trailers = git([
        '--git-dir',
        small.gitdir,
        'log',
        '-1',
        '--format=%(trailers:key=Vigil-Skipped,valueonly)',
        entry.id,
      ]).split('\n');
      expect(trailers).toContain('vcs vendor/lib/.git/');
      expect(trailers).toContain('oversize big.txt');
      expect(readdirSync(nestedGit, { recursive: true }).map(String).sort()).toEqual(nestedBefore);
      expect(readFileSync(path.join(nestedGit, 'HEAD'), 'utf8')).toBe(nestedHead);
      const status = await small.status(dir);
      expect(status.directories[0]?.skipped).toEqual(entry.skipped);
      expect(fsck(small.gitdir)).toBe('');
    } finally {
      await small.dispose();
    }
  });

  it("never stores Vigil's own data folder when it sits inside a checkpointed directory", async () => {
    const inside = testService(path.join(dir, 'vigil-home', 'checkpoints'));
    try {
      writeTree(dir, { 'code.ts': 'x\n', 'vigil-home/serve.json': '{"token":"secret"}' });
      const entry = created(await inside.checkpoint(dir, { reason: 'before write_file' }));
      expect(entry.skipped).toEqual([{ path: 'vigil-home/', reason: 'excluded' }]);
      expect(git(['--git-dir', inside.gitdir, 'ls-tree', '-r', '--name-only', entry.id])).toBe('code.ts');
      writeTree(dir, { 'code.ts': 'y\n' });
      const next = created(await inside.checkpoint(dir, { reason: 'before patch' }));
      expect(next.stats.files).toBe(1);
    } finally {
      await inside.dispose();
    }
  });

  it("never stores Vigil's own data folder inside a checkpointed directory when it is named through a symlink", async () => {
    writeTree(dir, { 'code.ts': 'x\n', 'vigil-home/serve.json': '{"token":"secret"}' });
    symlinkSync(path.join(dir, 'vigil-home'), path.join(base, 'home-link'));
    const inside = testService(path.join(base, 'home-link', 'checkpoints'));
    try {
      const entry = created(await inside.checkpoint(dir, { reason: 'before write_file' }));
      expect(git(['--git-dir', inside.gitdir, 'ls-tree', '-r', '--name-only', entry.id])).toBe('code.ts');
      expect(entry.skipped).toEqual([{ path: 'vigil-home/', reason: 'excluded' }]);
    } finally {
      await inside.dispose();
    }
  });

  it("leaves out Vigil's temp files and the lock and write record it keeps beside memory files", async () => {
    writeTree(dir, {
      'MEMORY.md': 'entry',
      '.MEMORY.md.vigil-lock': '',
      '.MEMORY.md.vigil-record': '{"sha256":"x"}',
      '.MEMORY.md.vigil-tmp-123-0-0123456789ab': 'half',
      '.MEMORY.md.vigil-lock.new-123-0123456789ab': '{}',
      '.MEMORY.md.vigil-lock.takeover-0123abcd': '{}',
      'notes.vigil-lock': 'not hidden, so a user file',
    });
    const entry = created(await service.checkpoint(dir, { reason: 'before memory' }));
    expect(git(['--git-dir', service.gitdir, 'ls-tree', '-r', '--name-only', entry.id]).split('\n')).toEqual([
      'MEMORY.md',
      'notes.vigil-lock',
    ]);
    writeTree(dir, { '.MEMORY.md.vigil-record': '{"sha256":"y"}' });
    expect((await service.checkpoint(dir, { reason: 'again' })).kind).not.toBe('created');
  });

  it('refuses the root, the home directory itself, relative paths and missing folders', async () => {
    const guarded = testService(path.join(base, 'home3', 'checkpoints'), { refusedDirs: [dir] });
    try {
      await expect(guarded.checkpoint('/', { reason: 'x' })).rejects.toMatchObject({ code: 'forbidden_path' });
      await expect(guarded.checkpoint(dir, { reason: 'x' })).rejects.toMatchObject({
        code: 'forbidden_path',
        message: expect.stringContaining('home directory') as unknown,
      });
      await expect(guarded.checkpoint('relative/dir', { reason: 'x' })).rejects.toMatchObject({
        code: 'invalid_request',
      });
      await expect(guarded.checkpoint(path.join(base, 'missing'), { reason: 'x' })).rejects.toMatchObject({
        code: 'not_found',
      });
      writeFileSync(path.join(base, 'file'), 'x');
      await expect(guarded.checkpoint(path.join(base, 'file'), { reason: 'x' })).rejects.toMatchObject({
        code: 'wrong_kind',
      });
      await expect(guarded.checkpoint(path.join(dir, '..', 'work'), { reason: '' })).rejects.toMatchObject({
        code: 'invalid_request',
      });
    } finally {
      await guarded.dispose();
    }
  });

  it('always records a pre-rollback snapshot, with its kind and the checkpoint it restores', async () => {
    writeTree(dir, { 'a.txt': 'a\n' });
    const first = created(await service.checkpoint(dir, { reason: 'before write_file' }));
    const undo = created(
      await service.checkpoint(dir, {
        reason: `pre-rollback snapshot (restoring to ${first.id.slice(0, 8)})`,
        kind: 'pre-rollback',
        restores: first.id,
      }),
    );
    expect(undo).toMatchObject({
      kind: 'pre-rollback',
      restores: first.id,
      parent: first.id,
      tree: first.tree,
      stats: { files: 0, insertions: 0, deletions: 0 },
    });
    const trailers = git(['--git-dir', service.gitdir, 'log', '-1', '--format=%(trailers:unfold)', undo.id]);
    expect(trailers).toContain('Vigil-Kind: pre-rollback');
    expect(trailers).toContain(`Vigil-Restores: ${first.id}`);
    await expect(service.checkpoint(dir, { reason: 'x', kind: 'pre-rollback' })).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  it('hashes big batches in worker threads into a pack that git reads', async () => {
    const workers = testService(path.join(base, 'home4', 'checkpoints'), { workerThreshold: 50, workers: 2 });
    try {
      for (let index = 0; index < 600; index += 1)
        writeTree(dir, { [`d${index % 13}/f${index}.txt`]: `content ${index}\n`.repeat(index % 5) });
      const entry = created(await workers.checkpoint(dir, { reason: 'before write_file' }));
      expect(entry.tree).toBe(gitWriteTree(path.join(base, 'shadow'), dir));
      expect(entry.stats.files).toBe(600);
      const packs = readdirSync(path.join(workers.gitdir, 'objects/pack')).filter((name) => name.endsWith('.pack'));
      expect(packs.length).toBeGreaterThan(0);
      for (const pack of packs)
        git([
          '--git-dir',
          workers.gitdir,
          'verify-pack',
          path.join(workers.gitdir, 'objects/pack', pack.replace(/\.pack$/, '.idx')),
        ]);
      expect(fsck(workers.gitdir)).toBe('');
      rmSync(path.join(dir, 'd3'), { recursive: true });
      const second = created(await workers.checkpoint(dir, { reason: 'before terminal: rm -r d3' }));
      expect(second.stats.deletions).toBe(
        git(['--git-dir', workers.gitdir, 'diff', '--numstat', entry.id, second.id])
          .split('\n')
          .reduce((sum, line) => sum + Number(line.split('\t')[1]), 0),
      );
      // A middling batch goes to the running workers too, as loose objects, with its line changes counted there.
      for (let index = 0; index < 600; index += 15)
        writeTree(dir, { [`d${index % 13}/f${index}.txt`]: `rewritten ${index}\n`.repeat(index % 3) });
      const third = created(await workers.checkpoint(dir, { reason: 'before patch' }));
      expect(third.tree).toBe(gitWriteTree(path.join(base, 'shadow2'), dir));
      const numstat = git(['--git-dir', workers.gitdir, 'diff', '--numstat', second.id, third.id])
        .split('\n')
        .map((line) => line.split('\t').map(Number));
      expect(third.stats).toEqual({
        files: numstat.length,
        insertions: numstat.reduce((sum, [added = 0]) => sum + added, 0),
        deletions: numstat.reduce((sum, [, removed = 0]) => sum + removed, 0),
      });
      expect(fsck(workers.gitdir)).toBe('');
      expect(statSync(workers.gitdir).isDirectory()).toBe(true);
    } finally {
      await workers.dispose();
    }
  });
});
