import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { restoreServiceFor, type RestoreService } from './restore-service';
import { runGit, writeFiles } from '../test-support/restore-fixtures';

/**
 * A repository made inside the folder since its last checkpoint: the restore point's walk judges
 * its files by its own rules, so the plan shown before the restore must too, or the restore of
 * the plan the user approved is refused as "changed since this restore was planned".
 */

let root: string;
let remove: () => Promise<void>;
let ws: string;
let engine: CheckpointService;
let restore: RestoreService;
const storeRoot = (): string => path.join(root, 'home', 'checkpoints');

/** A fresh engine and restore service, as each CLI command has. */
async function freshProcess(): Promise<void> {
  await engine.dispose();
  engine = new CheckpointService({ root: storeRoot(), logger: silentLogger });
  restore = restoreServiceFor(engine, storeRoot(), silentLogger, { emit: () => undefined });
}

beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-restore-plan-new-clone-'));
  ws = path.join(root, 'ws');
  engine = new CheckpointService({ root: storeRoot(), logger: silentLogger });
  restore = restoreServiceFor(engine, storeRoot(), silentLogger, { emit: () => undefined });
});
afterEach(async () => {
  await engine.dispose();
  await remove();
});

it('plans, then restores, a folder (no repository) where a clone was made since its checkpoint', async () => {
  writeFiles(ws, { 'top.txt': 'top\n' });
  const taken = await engine.checkpoint(ws, { reason: 'before write_file' });
  if (taken.kind !== 'created') throw new Error('expected a new checkpoint');
  writeFiles(ws, { 'top.txt': 'edited\n' });
  const clone = path.join(ws, 'a');
  runGit(['init', '-q', clone]);
  // Files the built-in names leave out, which the clone tracks: stored, so the restore deletes them (undoably).
  writeFiles(clone, { 'logo.png': 'png', 'notes.log': 'n\n' });
  runGit(['add', '-f', '-A'], { cwd: clone });
  runGit(['commit', '-q', '-m', 'a'], { cwd: clone });
  await freshProcess();
  const plan = await restore.plan(ws, taken.checkpoint.id);
  expect(plan.entries.map((entry) => `${entry.action} ${entry.path}`).sort()).toEqual([
    'delete a/logo.png',
    'delete a/notes.log',
    'restore top.txt',
  ]);
  await freshProcess();
  const done = await restore.restore(ws, taken.checkpoint.id, [], { fingerprint: plan.fingerprint });
  expect(done.status).toBe('complete');
  expect(readFileSync(path.join(ws, 'top.txt'), 'utf8')).toBe('top\n');
  expect(existsSync(path.join(clone, 'logo.png'))).toBe(false);
});

it('restores, with no plan shown first, a folder where a clone made since its checkpoint ignores a file it holds', async () => {
  writeFiles(ws, { 'top.txt': 'top\n', 'a/out.txt': 'out\n', 'a/keep.txt': 'keep\n' });
  const taken = await engine.checkpoint(ws, { reason: 'before write_file' });
  if (taken.kind !== 'created') throw new Error('expected a new checkpoint');
  writeFiles(ws, { 'top.txt': 'edited\n' });
  // `a` becomes a clone that ignores out.txt, left as the checkpoint holds it: nothing to do for it.
  const clone = path.join(ws, 'a');
  runGit(['init', '-q', clone]);
  writeFiles(clone, { '.gitignore': 'out.txt\n' });
  runGit(['add', '-A'], { cwd: clone });
  runGit(['commit', '-q', '-m', 'a'], { cwd: clone });
  await freshProcess();
  const done = await restore.restore(ws, taken.checkpoint.id);
  expect(done.outcomes.map((outcome) => `${outcome.result} ${outcome.action} ${outcome.path}`)).toEqual([
    'done delete a/.gitignore',
    'done restore top.txt',
  ]);
  expect(done.status).toBe('complete');
  expect(readFileSync(path.join(clone, 'out.txt'), 'utf8')).toBe('out\n');
  expect(readFileSync(path.join(ws, 'top.txt'), 'utf8')).toBe('top\n');
});

it('plans, then restores, chosen files of a clone made since the checkpoint, judged by its rules', async () => {
  writeFiles(ws, { 'top.txt': 'top\n' });
  const taken = await engine.checkpoint(ws, { reason: 'before write_file' });
  if (taken.kind !== 'created') throw new Error('expected a new checkpoint');
  const clone = path.join(ws, 'a');
  runGit(['init', '-q', clone]);
  writeFiles(clone, { 'logo.png': 'png' });
  runGit(['add', '-f', '-A'], { cwd: clone });
  runGit(['commit', '-q', '-m', 'a'], { cwd: clone });
  await freshProcess();
  // Tracked by the clone: stored, so a file the checkpoint does not hold (the built-in names would call it excluded).
  const plan = await restore.plan(ws, taken.checkpoint.id, ['a/logo.png']);
  expect(plan.entries.map((entry) => `${entry.action} ${entry.path}`)).toEqual(['delete a/logo.png']);
  await freshProcess();
  const done = await restore.restore(ws, taken.checkpoint.id, ['a/logo.png'], { fingerprint: plan.fingerprint });
  expect(done.status).toBe('complete');
  expect(existsSync(path.join(clone, 'logo.png'))).toBe(false);
});
