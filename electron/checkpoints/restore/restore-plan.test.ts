import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import type { CheckpointEntry } from '../checkpoint-types';
import { createPathScope, overlayReader, readLiveTree } from '../compare';
import { applyRestorePlan } from './restore-apply';
import { planRestore, type RestorePlan } from './restore-plan';
import { createWriteLedger, type WriteLedger } from './restore-write-ledger';
import {
  entryOf,
  gitCommit,
  initBareStore,
  isoTreeReader,
  listFiles,
  treeOf,
  writeFiles,
} from '../test-support/restore-fixtures';

/**
 * Plan and apply against checkpoints made with git's own CLI (real objects), with the directory
 * read the way a snapshot reads it. The end-to-end tests with the engine's pre-rollback snapshot
 * are in restore-service.test.ts.
 */

let root: string;
let remove: () => Promise<void>;
let store: string;
let dir: string;
let ledger: WriteLedger;
const agent = { kind: 'session', sessionId: 's-1', agent: 'alpha', turn: 2, tool: 'write_file' } as const;
const maxFileBytes = 1024;
const rules = { maxFileBytes, ignoredFolders: [] };
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-restore-plan-'));
  store = path.join(root, 'store');
  dir = path.join(root, 'work');
  initBareStore(store);
  ledger = createWriteLedger(path.join(root, 'written.jsonl'));
});
afterEach(async () => {
  await remove();
});

/** The stored paths of the fixture directory: what a snapshot would hold. */
function stored(): string[] {
  return listFiles(dir).filter(
    (file) => !file.startsWith('node_modules/') && !file.startsWith('.env') && file !== 'big.txt',
  );
}

/** A checkpoint of the stored files, committed with git's CLI. */
function checkpointNow(): CheckpointEntry {
  return entryOf(store, dir, gitCommit(store, dir, 'checkpoint', stored()));
}

async function planNow(checkpoint: CheckpointEntry, paths: readonly string[] = []): Promise<RestorePlan> {
  const scope = createPathScope(paths);
  const live = await readLiveTree(dir, rules, scope);
  return planRestore({
    dir,
    checkpoint,
    scope,
    current: { tree: live.root, reader: overlayReader(live, isoTreeReader(store)) },
    maxFileBytes,
    ledger,
  });
}

async function applyNow(checkpoint: CheckpointEntry, plan: RestorePlan): ReturnType<typeof applyRestorePlan> {
  const reader = isoTreeReader(store);
  return applyRestorePlan({ plan, checkpointTree: checkpoint.tree, reader, readBlob: (oid) => reader.readBlob(oid) });
}

function actions(plan: RestorePlan): string[] {
  return plan.entries.map(
    (entry) => `${entry.action}${entry.reason === undefined ? '' : `:${entry.reason}`} ${entry.path}`,
  );
}

const base = {
  'a.txt': 'original a\n',
  'src/app.ts': 'export const app = 1;\n',
  'bin/run': { content: '#!/bin/sh\necho run\n', mode: 0o755 },
  link: { symlink: 'a.txt' },
  'gone.txt': 'will be deleted\n',
  'keepdir/k.txt': 'keep\n',
  'node_modules/dep/index.js': 'dep v1\n',
  '.env': 'SECRET=one\n',
  'big.txt': 'b'.repeat(4096),
};

describe('planRestore and applyRestorePlan', () => {
  it('restores content, mode and symlinks, re-creates and deletes, and leaves excluded and oversize files alone', async () => {
    writeFiles(dir, base);
    const checkpoint = checkpointNow();
    writeFiles(dir, {
      'a.txt': 'edited a\n',
      'src/app.ts': { symlink: '../a.txt' },
      link: 'a file now\n',
      'new.txt': 'created later\n',
      'newdir/deep/n.txt': 'created later, deep\n',
      'node_modules/dep/index.js': 'dep v2\n',
      '.env': 'SECRET=two\n',
      'big.txt': 'c'.repeat(4096),
    });
    chmodSync(path.join(dir, 'bin/run'), 0o644);
    rmSync(path.join(dir, 'gone.txt'));

    const plan = await planNow(checkpoint);
    expect(actions(plan)).toEqual([
      'restore a.txt',
      'restore bin/run',
      'recreate gone.txt',
      'restore link',
      'delete new.txt',
      'delete newdir/deep/n.txt',
      'restore src/app.ts',
    ]);
    expect(plan.counts).toEqual({ restore: 4, recreate: 1, delete: 2, skip: 0 });

    const result = await applyNow(checkpoint, plan);
    expect(result.outcomes.filter((outcome) => outcome.result !== 'done')).toEqual([]);
    expect(result.isVerified).toBe(true);
    expect(result.removedDirectories).toEqual(['newdir/deep', 'newdir']);
    // git's CLI agrees: the stored files now make exactly the checkpoint's tree.
    expect(treeOf(store, gitCommit(store, dir, 'after', stored()))).toBe(checkpoint.tree);
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('original a\n');
    expect(statSync(path.join(dir, 'bin/run')).mode & 0o111).toBe(0o111);
    expect(readlinkSync(path.join(dir, 'link'))).toBe('a.txt');
    expect(lstatSync(path.join(dir, 'src/app.ts')).isFile()).toBe(true);
    expect(existsSync(path.join(dir, 'newdir'))).toBe(false);
    // Never touched: excluded and oversize files keep their newer content.
    expect(readFileSync(path.join(dir, 'node_modules/dep/index.js'), 'utf8')).toBe('dep v2\n');
    expect(readFileSync(path.join(dir, '.env'), 'utf8')).toBe('SECRET=two\n');
    expect(readFileSync(path.join(dir, 'big.txt'), 'utf8')).toBe('c'.repeat(4096));

    const again = await planNow(checkpoint);
    expect(again.entries).toEqual([]);
  });

  it('restores only the files and folders named, and says why it skips the ones it cannot', async () => {
    writeFiles(dir, base);
    const checkpoint = checkpointNow();
    writeFiles(dir, {
      'a.txt': 'edited\n',
      'src/app.ts': 'edited\n',
      'newdir/n.txt': 'new\n',
      'keepdir/k.txt': 'edited keep\n',
      '.env': 'SECRET=two\n',
    });
    const plan = await planNow(checkpoint, [
      'a.txt',
      'newdir',
      'gone.txt',
      '.env',
      'node_modules/dep/index.js',
      'big.txt',
    ]);
    expect(actions(plan)).toEqual([
      'skip:excluded .env',
      'restore a.txt',
      'skip:oversize big.txt',
      'skip:unchanged gone.txt',
      'delete newdir/n.txt',
      'skip:excluded node_modules/dep/index.js',
    ]);
    await applyNow(checkpoint, plan);
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('original a\n');
    expect(existsSync(path.join(dir, 'newdir'))).toBe(false);
    expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toBe('edited\n');
    expect(readFileSync(path.join(dir, 'keepdir/k.txt'), 'utf8')).toBe('edited keep\n');
    expect(readFileSync(path.join(dir, '.env'), 'utf8')).toBe('SECRET=two\n');
  });

  it('refuses paths that are absolute, escape the directory, or exist nowhere', async () => {
    writeFiles(dir, base);
    const checkpoint = checkpointNow();
    await expect(planNow(checkpoint, ['/etc/passwd'])).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('absolute') as unknown,
    });
    await expect(planNow(checkpoint, ['../outside.txt'])).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('leaves the directory') as unknown,
    });
    await expect(planNow(checkpoint, ['src/../../x'])).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(planNow(checkpoint, ['no/such/file.txt'])).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('no/such/file.txt') as unknown,
    });
  });

  it('replaces a folder created where the checkpoint had a file, and the reverse', async () => {
    writeFiles(dir, { data: 'data file\n', 'conf/settings.json': '{}\n' });
    const checkpoint = checkpointNow();
    rmSync(path.join(dir, 'data'));
    rmSync(path.join(dir, 'conf'), { recursive: true });
    writeFiles(dir, { 'data/part1.txt': 'p1\n', 'data/sub/part2.txt': 'p2\n', conf: 'a file now\n' });
    const plan = await planNow(checkpoint);
    expect(actions(plan)).toEqual([
      'delete conf',
      'recreate conf/settings.json',
      'recreate data',
      'delete data/part1.txt',
      'delete data/sub/part2.txt',
    ]);
    const result = await applyNow(checkpoint, plan);
    expect(result.outcomes.filter((outcome) => outcome.result !== 'done')).toEqual([]);
    expect(readFileSync(path.join(dir, 'data'), 'utf8')).toBe('data file\n');
    expect(readFileSync(path.join(dir, 'conf/settings.json'), 'utf8')).toBe('{}\n');
  });

  it('blocks a re-create when something no snapshot holds is in the way', async () => {
    writeFiles(dir, { 'out.txt': 'out\n', 'x/y.txt': 'y\n', 'keep.txt': 'k\n' });
    const checkpoint = checkpointNow();
    rmSync(path.join(dir, 'out.txt'));
    rmSync(path.join(dir, 'x'), { recursive: true });
    rmSync(path.join(dir, 'keep.txt'));
    writeFiles(dir, { 'out.txt/node_modules/m.js': 'dependency\n', x: 'x'.repeat(4096) });
    writeFiles(dir, { 'keep.txt/created.txt': 'c\n' });
    mkdirSync(path.join(dir, 'keep.txt/an/empty/folder'), { recursive: true });
    const plan = await planNow(checkpoint);
    expect(actions(plan)).toEqual([
      'skip:blocked keep.txt',
      'delete keep.txt/created.txt',
      'skip:blocked out.txt',
      'skip:blocked x/y.txt',
    ]);
    expect(plan.entries[0]?.note).toContain('keep.txt/an/empty/folder/');
    expect(plan.entries[3]?.note).toContain('x is a file now');
    const result = await applyNow(checkpoint, plan);
    expect(result.outcomes.map((outcome) => outcome.result)).toEqual(['skipped', 'done', 'skipped', 'skipped']);
    expect(existsSync(path.join(dir, 'keep.txt/an/empty/folder'))).toBe(true);
    expect(readFileSync(path.join(dir, 'out.txt/node_modules/m.js'), 'utf8')).toBe('dependency\n');
    expect(readFileSync(path.join(dir, 'x'), 'utf8')).toBe('x'.repeat(4096));
  });

  it('never deletes a file the checkpoint skipped when it was taken', async () => {
    writeFiles(dir, { 'a.txt': 'a\n', 'was-unreadable.txt': 'existed then\n' });
    const commit = gitCommit(store, dir, 'checkpoint', ['a.txt']);
    const checkpoint = entryOf(store, dir, commit, [{ path: 'was-unreadable.txt', reason: 'unreadable' }]);
    const plan = await planNow(checkpoint);
    expect(actions(plan)).toEqual(['skip:not-in-checkpoint was-unreadable.txt']);
  });

  it('leaves a file that changed after the plan exactly as found and reports a conflict', async () => {
    writeFiles(dir, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const checkpoint = checkpointNow();
    writeFiles(dir, { 'a.txt': 'agent edit\n', 'b.txt': 'agent edit\n', 'c.txt': 'new\n' });
    const plan = await planNow(checkpoint);
    writeFiles(dir, { 'a.txt': 'somebody typed this after the snapshot\n', 'c.txt': 'and this\n' });
    const result = await applyNow(checkpoint, plan);
    expect(result.outcomes.map((outcome) => `${outcome.result} ${outcome.path}`)).toEqual([
      'conflict a.txt',
      'done b.txt',
      'conflict c.txt',
    ]);
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('somebody typed this after the snapshot\n');
    expect(readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('b\n');
    expect(readFileSync(path.join(dir, 'c.txt'), 'utf8')).toBe('and this\n');
  });

  it('flags files whose current version Vigil did not write itself', async () => {
    writeFiles(dir, {
      'agent.txt': 'v1\n',
      'human.txt': 'v1\n',
      'both.txt': 'v1\n',
      'removed-by-vigil.txt': 'x\n',
      'removed-by-hand.txt': 'x\n',
    });
    const checkpoint = checkpointNow();
    writeFiles(dir, { 'agent.txt': 'agent v2\n', 'both.txt': 'agent v2\n' });
    rmSync(path.join(dir, 'removed-by-vigil.txt'));
    await ledger.record(
      ['agent.txt', 'both.txt', 'removed-by-vigil.txt'].map((name) => path.join(dir, name)),
      agent,
    );
    writeFileSync(path.join(dir, 'human.txt'), 'edited by hand\n');
    writeFileSync(path.join(dir, 'both.txt'), 'agent v2, then edited by hand\n');
    rmSync(path.join(dir, 'removed-by-hand.txt'));
    const plan = await planNow(checkpoint);
    expect(plan.entries.map((entry) => `${entry.path} ${entry.isChangedOutsideAgents}`)).toEqual([
      'agent.txt false',
      'both.txt true',
      'human.txt true',
      'removed-by-hand.txt true',
      'removed-by-vigil.txt false',
    ]);
    expect(plan.changedOutsideAgents).toBe(3);
    // Who made the versions Vigil recorded is named; a flagged file names nobody.
    expect(plan.entries.map((entry) => `${entry.path} ${entry.changedBy?.kind ?? '-'}`)).toEqual([
      'agent.txt session',
      'both.txt -',
      'human.txt -',
      'removed-by-hand.txt -',
      'removed-by-vigil.txt session',
    ]);
    expect(plan.entries.find((entry) => entry.path === 'agent.txt')?.changedBy).toEqual(agent);
  });

  it('gives the same fingerprint for the same state and a new one when anything in scope changes', async () => {
    writeFiles(dir, base);
    const checkpoint = checkpointNow();
    writeFiles(dir, { 'a.txt': 'edited\n' });
    const first = await planNow(checkpoint);
    expect((await planNow(checkpoint)).fingerprint).toBe(first.fingerprint);
    writeFiles(dir, { 'node_modules/dep/index.js': 'excluded changes do not matter\n' });
    expect((await planNow(checkpoint)).fingerprint).toBe(first.fingerprint);
    writeFiles(dir, { 'a.txt': 'edited again\n' });
    expect((await planNow(checkpoint)).fingerprint).not.toBe(first.fingerprint);
    mkdirSync(path.join(dir, 'empty-folder'));
    writeFiles(dir, { 'src/new.ts': 'new\n' });
    expect((await planNow(checkpoint, ['a.txt'])).fingerprint).not.toBe((await planNow(checkpoint)).fingerprint);
  });
});
