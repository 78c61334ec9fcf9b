import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CheckpointService,
  type DiffService,
  loadDiffService,
  loadRestoreService,
  type RestoreService,
} from '../checkpoints';
import { dirHash } from '../git-store';
import { fsck, git, testService } from '../checkpoints/test-support/store-fixtures';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { HermesCheckpoints } from './hermes-checkpoints';
import { unknownStats } from './hermes-entry';
import { mergeHermesCheckpoints, type MergedCheckpointApi } from './merged-checkpoints';
import { folderFingerprint, hermesGit, hermesSharedCheckpoint, sharedStore } from './test-support/hermes-fixtures';

const { restoreServiceFor } = await loadRestoreService();
const { diffServiceFor } = await loadDiffService();

/** Hermes's checkpoints on Vigil's timeline, and diffed and restored by Vigil's engine. */

let base: string;
let remove: () => Promise<void>;
let home: string;
let project: string;
let engine: CheckpointService;
let hermes: HermesCheckpoints;
let view: MergedCheckpointApi;
let restore: RestoreService;
let diffs: DiffService;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-hermes-merged-'));
  home = path.join(base, 'hermes');
  project = path.join(base, 'project');
  mkdirSync(project);
  const root = path.join(base, 'vigil', 'checkpoints');
  engine = testService(root);
  hermes = new HermesCheckpoints({ env: { HERMES_HOME: home }, logger: silentLogger });
  view = mergeHermesCheckpoints(engine, hermes, { env: { XDG_CONFIG_HOME: path.join(base, 'xdg') }, home: base });
  restore = restoreServiceFor(view, root, silentLogger);
  diffs = diffServiceFor(view, root);
});
afterEach(async () => {
  await hermes.dispose();
  await engine.dispose();
  await remove();
});

function write(files: Readonly<Record<string, string>>): void {
  for (const [relative, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(project, relative)), { recursive: true });
    writeFileSync(path.join(project, relative), text);
  }
}

function read(relative: string): string | undefined {
  const file = path.join(project, relative);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

async function vigilCheckpoint(reason: string): Promise<string> {
  const outcome = await engine.checkpoint(project, { reason });
  if (outcome.kind !== 'created') throw new Error('expected a checkpoint');
  return outcome.checkpoint.id;
}

const past = Math.floor(Date.now() / 1000) - 3_600;

describe('one timeline of both sources', () => {
  it('merges newest first with each entry marked, numbers the merged list, and filters by source', async () => {
    write({ 'a.txt': 'one\n' });
    const h1 = hermesSharedCheckpoint(home, project, 'before write_file', { seconds: past }) ?? '';
    const v1 = await vigilCheckpoint('before patch');
    write({ 'a.txt': 'two\n' });
    const h2 = hermesSharedCheckpoint(home, project, 'before terminal: rm -rf tmp', { seconds: past + 7_200 }) ?? '';

    const entries = await view.list(project);
    expect(entries.map((entry) => [entry.id, entry.source])).toEqual([
      [h2, 'hermes'],
      [v1, 'vigil'],
      [h1, 'hermes'],
    ]);
    expect(await view.count(project)).toBe(3);
    expect(await view.count(project, { source: 'hermes' })).toBe(2);
    expect((await view.list(project, { source: 'hermes' })).map((entry) => entry.id)).toEqual([h2, h1]);
    expect((await view.list(project, { source: 'vigil' })).map((entry) => entry.id)).toEqual([v1]);
    expect((await view.list(project, { offset: 1, limit: 1 })).map((entry) => entry.id)).toEqual([v1]);
    expect(entries[0]?.stats).toEqual({ files: 1, insertions: 1, deletions: 1 });

    expect((await view.resolve(project, '1')).id).toBe(h2);
    expect((await view.resolve(project, '2')).id).toBe(v1);
    expect((await view.resolve(project, h1.slice(0, 10))).id).toBe(h1);
    expect((await view.resolve(project, v1.slice(0, 10))).source).toBe('vigil');
    await expect(view.resolve(project, '4')).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('use 1–3') as unknown,
    });
  });

  it('takes a folder already resolved as it is, and a bare list computes no Hermes stats', async () => {
    write({ 'a.txt': 'one\n' });
    const h1 = hermesSharedCheckpoint(home, project, 'before write_file', { seconds: past }) ?? '';
    const v1 = await vigilCheckpoint('before patch');
    write({ 'a.txt': 'two\n' });
    const h2 = hermesSharedCheckpoint(home, project, 'before terminal: rm -rf tmp', { seconds: past + 7_200 }) ?? '';
    const link = path.join(base, 'link');
    symlinkSync(project, link);

    // Bare first (stats are kept once computed): ids and order as the full list, no stats computed.
    const bare = await view.list(project, { isResolved: true, isBare: true });
    expect(bare.map((entry) => entry.id)).toEqual([h2, v1, h1]);
    expect(bare[0]?.stats).toEqual(unknownStats);
    expect((await view.list(project))[0]?.stats).toEqual({ files: 1, insertions: 1, deletions: 1 });
    // Resolved: the link is not resolved again, by the view nor by the engine behind it.
    expect((await view.list(link)).map((entry) => entry.id)).toEqual([h2, v1, h1]);
    await expect(view.list(link, { isResolved: true })).rejects.toMatchObject({ code: 'not_found' });
    await expect(view.count(link, { isResolved: true })).rejects.toMatchObject({ code: 'not_found' });
    await expect(view.resolve(link, '1', { isResolved: true })).rejects.toMatchObject({ code: 'not_found' });
    expect(await view.count(project, { isResolved: true })).toBe(3);
    expect((await view.resolve(project, '2', { isResolved: true })).id).toBe(v1);
    expect((await view.resolve(project, v1.slice(0, 10), { isResolved: true })).source).toBe('vigil');
  });

  it('lists a directory only Hermes checkpointed, and says so when neither did', async () => {
    write({ 'a.txt': 'one\n' });
    const h1 = hermesSharedCheckpoint(home, project, 'before write_file') ?? '';
    expect((await view.list(project)).map((entry) => entry.id)).toEqual([h1]);
    const directories = await view.directories();
    expect(directories).toEqual([
      expect.objectContaining({
        dir: project,
        dirhash: dirHash(project),
        count: 1,
        head: h1,
        exists: true,
        sources: ['hermes'],
      }),
    ]);
    const elsewhere = path.join(base, 'elsewhere');
    mkdirSync(elsewhere);
    await expect(view.list(elsewhere)).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('never checkpointed, by Vigil or by Hermes Agent') as unknown,
    });
  });
});

describe('diff and restore of a Hermes checkpoint, by the same engine', () => {
  it("restores it with the pre-rollback snapshot in Vigil's store, never writing Hermes's, and the restore can be undone", async () => {
    write({
      'app.py': 'print("v1")\n',
      'lib/util.py': 'x = 1\n',
      'gone.py': 'old\n',
      '.gitignore': 'secrets.json\ndata/\n',
    });
    const hermesId = hermesSharedCheckpoint(home, project, 'before write_file', { seconds: past }) ?? '';
    hermesGit(['--git-dir', sharedStore(home), 'gc', '--quiet', '--prune=now']);

    write({
      'app.py': 'print("v2")\n',
      'new.py': 'created after\n',
      'secrets.json': '{"token": 1}\n',
      'data/big.csv': '1,2\n',
    });
    rmSync(path.join(project, 'gone.py'));
    mkdirSync(path.join(project, 'vendor/lib'), { recursive: true });
    hermesGit(['init', '--quiet', path.join(project, 'vendor/lib')]);
    write({ 'vendor/lib/code.c': 'int x;\n' });
    const before = folderFingerprint(home);

    const page = await diffs.diff(project, '1', { kind: 'live' });
    expect(page.from.id).toBe(hermesId);
    expect(page.files.map((file) => [file.path, file.status])).toEqual(
      expect.arrayContaining([
        ['app.py', 'modified'],
        ['gone.py', 'deleted'],
        ['new.py', 'added'],
      ]),
    );
    // What Hermes's git could not have stored (ignored, a nested repository) is no change since its checkpoint.
    expect(
      page.files
        .map((file) => file.path)
        .filter((file) => file === 'secrets.json' || file.startsWith('data/') || file.startsWith('vendor/')),
    ).toEqual([]);
    const hunks = await diffs.fileDiff(project, hermesId.slice(0, 8), { kind: 'live' }, 'app.py');
    expect(hunks.hunks[0]?.lines).toEqual(['-print("v1")', '+print("v2")']);

    const plan = await restore.plan(project, '1');
    const action = (file: string): string | undefined => plan.entries.find((entry) => entry.path === file)?.action;
    expect([action('app.py'), action('gone.py'), action('new.py')]).toEqual(['restore', 'recreate', 'delete']);
    expect(
      plan.entries
        .filter(
          (entry) =>
            entry.path.startsWith('data/') || entry.path === 'secrets.json' || entry.path.startsWith('vendor/'),
        )
        .every((entry) => entry.action === 'skip'),
    ).toBe(true);

    const result = await restore.restore(project, '1', [], { fingerprint: plan.fingerprint });
    expect(result.isVerified).toBe(true);
    expect([read('app.py'), read('gone.py'), read('new.py')]).toEqual(['print("v1")\n', 'old\n', undefined]);
    expect([read('secrets.json'), read('data/big.csv'), read('vendor/lib/code.c')]).toEqual([
      '{"token": 1}\n',
      '1,2\n',
      'int x;\n',
    ]);
    expect(folderFingerprint(home)).toBe(before);

    // The pre-rollback snapshot is Vigil's, on the merged timeline, and says what it restores.
    const [newest] = await view.list(project);
    expect(newest).toMatchObject({
      id: result.preRollback.id,
      source: 'vigil',
      kind: 'pre-rollback',
      restores: hermesId,
    });
    expect(git(['--git-dir', engine.gitdir, 'log', '-1', '--format=%B', `refs/vigil/${dirHash(project)}`])).toContain(
      `Vigil-Restores: ${hermesId}`,
    );
    fsck(engine.gitdir);

    await restore.restore(project, result.preRollback.id);
    expect([read('app.py'), read('gone.py'), read('new.py'), read('secrets.json')]).toEqual([
      'print("v2")\n',
      undefined,
      'created after\n',
      '{"token": 1}\n',
    ]);
    expect(folderFingerprint(home)).toBe(before);
  });

  it('restores one file of a Hermes checkpoint, and lists, diffs and plans without changing a byte of the store', async () => {
    write({ 'a.txt': 'a1\n', 'b.txt': 'b1\n' });
    hermesSharedCheckpoint(home, project, 'before patch', { seconds: past });
    write({ 'a.txt': 'a2\n', 'b.txt': 'b2\n' });
    const before = folderFingerprint(home);
    await view.list(project);
    await view.directories();
    await diffs.diff(project, '1', { kind: 'live' });
    await restore.plan(project, '1');
    expect(folderFingerprint(home)).toBe(before);
    const result = await restore.restore(project, '1', ['a.txt']);
    expect(result.counts.done).toBe(1);
    expect([read('a.txt'), read('b.txt')]).toEqual(['a1\n', 'b2\n']);
    expect(folderFingerprint(home)).toBe(before);
  });
});
