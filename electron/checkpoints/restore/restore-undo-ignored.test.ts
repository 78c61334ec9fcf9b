import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { restoreServiceFor, type RestoreService } from './restore-service';
import { runGit, writeFiles } from '../test-support/restore-fixtures';

/**
 * Undoing a restore (restoring its restore point, whole) and the files the rules leave out: it
 * deletes such a file the restore wrote back, and leaves alone one the restore did not write.
 */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let engine: CheckpointService;
let restore: RestoreService;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-restore-undo-ignored-'));
  dir = path.join(root, 'project');
  const checkpointsRoot = path.join(root, 'home', 'checkpoints');
  engine = new CheckpointService({ root: checkpointsRoot, logger: silentLogger });
  restore = restoreServiceFor(engine, checkpointsRoot, silentLogger, { emit: () => undefined });
});
afterEach(async () => {
  await engine.dispose();
  await remove();
});

/** A repository tracking `a.txt` and `x.log`, checkpointed; then `x.log` untracked (the built-in names leave it out) and deleted, `a.txt` edited. */
async function checkpointThenUntrackLog(): Promise<string> {
  runGit(['init', '-q', dir]);
  writeFiles(dir, { 'a.txt': 'a1\n', 'x.log': 'log v1\n' });
  runGit(['add', '-f', '-A'], { cwd: dir });
  runGit(['commit', '-q', '-m', 'c'], { cwd: dir });
  const outcome = await engine.checkpoint(dir, { reason: 'before write_file' });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
  runGit(['rm', '-q', '--cached', 'x.log'], { cwd: dir });
  rmSync(path.join(dir, 'x.log'));
  writeFiles(dir, { 'a.txt': 'a2\n' });
  return outcome.checkpoint.id;
}

describe('undoing a restore, for files the rules leave out', () => {
  it('deletes a file the undone restore wrote back', async () => {
    const id = await checkpointThenUntrackLog();
    const done = await restore.restore(dir, id);
    expect(readFileSync(path.join(dir, 'x.log'), 'utf8')).toBe('log v1\n');
    await restore.restore(dir, done.preRollback.id);
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('a2\n');
    expect(existsSync(path.join(dir, 'x.log'))).toBe(false);
  });

  it('leaves a file a restore of chosen files never wrote, made after it', async () => {
    const id = await checkpointThenUntrackLog();
    const done = await restore.restore(dir, id, ['a.txt']);
    expect(existsSync(path.join(dir, 'x.log'))).toBe(false);
    writeFiles(dir, { 'x.log': 'a new log\n' });
    const undo = await restore.restore(dir, done.preRollback.id);
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('a2\n');
    expect(readFileSync(path.join(dir, 'x.log'), 'utf8')).toBe('a new log\n');
    expect(undo.outcomes.filter((outcome) => outcome.result === 'done').map((outcome) => outcome.path)).toEqual([
      'a.txt',
    ]);
  });

  it('leaves a file made after the restore with the very bytes the restore wrote (not the file it wrote)', async () => {
    const id = await checkpointThenUntrackLog();
    const done = await restore.restore(dir, id);
    rmSync(path.join(dir, 'x.log'));
    writeFiles(dir, { 'x.log': 'log v1\n' });
    const undo = await restore.restore(dir, done.preRollback.id);
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('a2\n');
    expect(readFileSync(path.join(dir, 'x.log'), 'utf8')).toBe('log v1\n');
    expect(undo.outcomes.map((outcome) => `${outcome.result} ${outcome.path}`)).toEqual(['done a.txt']);
  });

  it('leaves, and does not list, an ignored file a restore of chosen files found as the checkpoint holds it', async () => {
    const id = await checkpointThenUntrackLog();
    writeFiles(dir, { 'x.log': 'log v1\n' });
    const done = await restore.restore(dir, id, ['a.txt']);
    const undo = await restore.restore(dir, done.preRollback.id);
    expect(readFileSync(path.join(dir, 'x.log'), 'utf8')).toBe('log v1\n');
    // Only what the undo did: no "not in checkpoint" line for a file it never had to touch.
    expect(undo.outcomes.map((outcome) => `${outcome.result} ${outcome.path}`)).toEqual(['done a.txt']);
    expect(undo.status).toBe('complete');
  });
});
