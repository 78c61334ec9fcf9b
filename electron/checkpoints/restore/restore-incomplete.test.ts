import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { runVigil } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { restoreServiceFor, type RestoreProgress, type RestoreService } from './restore-service';
import { writeFiles } from '../test-support/restore-fixtures';

/**
 * A restore never overstates: one that could not bring back a file it was to change says
 * "incomplete", lists each such file with its reason, exits 1, and its event says the same;
 * "Nothing to restore" only when the directory really matches.
 */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let home: string;
let engine: CheckpointService;
let restore: RestoreService;
let progress: RestoreProgress[];
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-restore-incomplete-'));
  dir = path.join(root, 'project');
  home = path.join(root, 'home');
  engine = new CheckpointService({ root: path.join(home, 'checkpoints'), logger: silentLogger });
  progress = [];
  restore = restoreServiceFor(engine, path.join(home, 'checkpoints'), silentLogger, {
    emit: (name, payload) => {
      if (name === 'checkpoints:restore-progressed') progress.push(payload as RestoreProgress);
    },
  });
});
afterEach(async () => {
  await engine.dispose();
  await remove();
});

async function checkpoint(): Promise<string> {
  const outcome = await engine.checkpoint(dir, { reason: 'before write_file' });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
  return outcome.checkpoint.id;
}

/** The last progress event: the restore's end. */
function finished(): RestoreProgress | undefined {
  return progress.filter((event) => event.phase === 'done').at(-1);
}

describe('a restore that cannot bring back every file', () => {
  it('a tracked file that became a folder of files no snapshot keeps: incomplete, the file and its reason, exit 1', async () => {
    writeFiles(dir, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    await checkpoint();
    await engine.dispose();
    rmSync(path.join(dir, 'a.txt'));
    writeFiles(dir, { 'a.txt/node_modules/dep/index.js': 'dep\n' });

    const run = await runVigil(['checkpoints', 'restore', dir, '1'], { env: { VIGIL_HOME: home } });
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('Nothing to restore');
    expect(run.stdout).toContain('⚠ Restore incomplete: 0 of 1 file(s) restored');
    expect(run.stdout).toMatch(
      /^ {2}blocked +a\.txt: A folder is here now holding 1 file\(s\) the restore will not delete/m,
    );
    expect(readFileSync(path.join(dir, 'a.txt/node_modules/dep/index.js'), 'utf8')).toBe('dep\n');
  }, 60_000);

  it('the same through the service: status, outcomes with reasons, and the done event agree', async () => {
    writeFiles(dir, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const id = await checkpoint();
    rmSync(path.join(dir, 'a.txt'));
    writeFiles(dir, { 'a.txt/node_modules/dep/index.js': 'dep\n', 'b.txt': 'changed\n' });
    const result = await restore.restore(dir, id);
    expect(result.status).toBe('incomplete');
    expect(result.incomplete).toBe(1);
    expect(result.outcomes.map((outcome) => [outcome.path, outcome.result, outcome.reason ?? ''])).toEqual([
      ['a.txt', 'skipped', 'blocked'],
      ['b.txt', 'done', ''],
    ]);
    expect(finished()).toMatchObject({ phase: 'done', status: 'incomplete', incomplete: 1, done: 1 });
    expect(readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('b\n');
  });

  it('a tracked file that became an empty folder is restored: the folder gives way', async () => {
    writeFiles(dir, { 'a.txt': 'a\n' });
    const id = await checkpoint();
    rmSync(path.join(dir, 'a.txt'));
    mkdirSync(path.join(dir, 'a.txt'));
    const result = await restore.restore(dir, id);
    expect(result.status).toBe('complete');
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(finished()).toMatchObject({ status: 'complete', incomplete: 0 });
  });

  it('a tracked folder that became a symlink to an outside folder: every file comes back, nothing is written outside', async () => {
    const outside = path.join(root, 'outside');
    writeFiles(dir, { 'a.txt': 'a\n', 'sub/s.txt': 's\n', 'sub/t.txt': 't\n' });
    await checkpoint();
    await engine.dispose();
    writeFiles(dir, { 'a.txt': 'A2\n' });
    rmSync(path.join(dir, 'sub'), { recursive: true });
    writeFiles(outside, { 's.txt': 'outside s\n', 't.txt': 'outside t\n' });
    symlinkSync(outside, path.join(dir, 'sub'));

    const run = await runVigil(['checkpoints', 'restore', dir, '1'], { env: { VIGIL_HOME: home } });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain('✅ Restored 4 file(s)');
    expect(lstatSync(path.join(dir, 'sub')).isDirectory()).toBe(true);
    expect(readFileSync(path.join(dir, 'sub/s.txt'), 'utf8')).toBe('s\n');
    expect(readFileSync(path.join(dir, 'sub/t.txt'), 'utf8')).toBe('t\n');
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(readdirSync(outside).sort()).toEqual(['s.txt', 't.txt']);
    expect(readFileSync(path.join(outside, 's.txt'), 'utf8')).toBe('outside s\n');
    expect(readFileSync(path.join(outside, 't.txt'), 'utf8')).toBe('outside t\n');
  }, 60_000);

  it('says "Nothing to restore" only when the directory matches', async () => {
    writeFiles(dir, { 'a.txt': 'a\n' });
    const id = await checkpoint();
    const result = await restore.restore(dir, id);
    expect(result).toMatchObject({ status: 'nothing-to-do', incomplete: 0 });
    expect(finished()).toMatchObject({ status: 'nothing-to-do' });
    writeFileSync(path.join(dir, 'a.txt'), 'changed\n');
    expect((await restore.restore(dir, id)).status).toBe('complete');
    expect(existsSync(path.join(dir, 'a.txt'))).toBe(true);
  });
});
