import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../../shared/errors';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { diffServiceFor, type DiffService } from '../diff/diff-service';
import { restoreServiceFor, type RestoreService } from './restore-service';
import { runGit, writeFiles } from '../test-support/restore-fixtures';
import { swapFolderForSymlink } from '../test-support/linked-folder-swap';

/** Line restore with the real engine: a plan, a pre-rollback snapshot git can read, one atomic write, undo. */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let engine: CheckpointService;
let restore: RestoreService;
let diffs: DiffService;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-line-restore-'));
  dir = path.join(root, 'project');
  const checkpointsRoot = path.join(root, 'home', 'checkpoints');
  engine = new CheckpointService({ root: checkpointsRoot, logger: silentLogger, maxFileBytes: 64 * 1024 });
  restore = restoreServiceFor(engine, checkpointsRoot, silentLogger);
  diffs = diffServiceFor(engine, checkpointsRoot);
});
afterEach(async () => {
  await engine.dispose();
  await remove();
});

const original = 'one\ntwo\nthree\nfour\nfive\nsix\n';
const edited = 'one\nTWO\nTHREE\nFOUR\nfive\nSIX\nseven\n';

async function checkpoint(): Promise<string> {
  const outcome = await engine.checkpoint(dir, { reason: 'before write_file' });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
  return outcome.checkpoint.id;
}

const read = (name: string): string => readFileSync(path.join(dir, name), 'utf8');

async function refusal(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; details?: Readonly<Record<string, unknown>> }> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error))
      return {
        code: error.code,
        message: error.message,
        ...(error.details === undefined ? {} : { details: error.details }),
      };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('line restore', () => {
  it('plans, snapshots, writes only the chosen lines, shows on the timeline, and is undone like any restore', async () => {
    writeFiles(dir, { 'notes.txt': original, 'other.txt': 'left alone\n' });
    const id = await checkpoint();
    writeFiles(dir, { 'notes.txt': edited, 'other.txt': 'changed too\n' });

    const plan = await restore.planLines({
      dir,
      ref: id,
      path: 'notes.txt',
      lines: { kind: 'range', range: { from: 2, to: 4 } },
    });
    expect(plan).toMatchObject({
      putBack: 3,
      takenOut: 3,
      checkpointLines: 6,
      currentLines: 7,
      selection: { old: [{ from: 2, to: 4 }], new: [{ from: 2, to: 4 }] },
    });
    expect(
      plan.hunks.flatMap((hunk) => hunk.lines).filter((line) => line.startsWith('-') || line.startsWith('+')),
    ).toEqual(['-TWO', '-THREE', '-FOUR', '+two', '+three', '+four']);
    expect(read('notes.txt')).toBe(edited);

    const result = await restore.restoreLines(
      { dir, ref: id, path: 'notes.txt', lines: { kind: 'range', range: { from: 2, to: 4 } } },
      plan.fingerprint,
    );
    expect(result.status).toBe('complete');
    expect(result.isVerified).toBe(true);
    expect(result.plan.lines).toMatchObject({ path: 'notes.txt', putBack: 3, takenOut: 3 });
    expect(read('notes.txt')).toBe('one\ntwo\nthree\nfour\nfive\nSIX\nseven\n');
    expect(read('other.txt')).toBe('changed too\n');

    // The restore point is the newest checkpoint, and git reads the version it kept.
    const [newest] = await engine.list(dir, { limit: 1 });
    expect(newest).toMatchObject({ id: result.preRollback.id, kind: 'pre-rollback', restores: id });
    expect(runGit(['--git-dir', engine.gitdir, 'show', `${result.preRollback.id}:notes.txt`])).toBe(edited.trimEnd());
    // What was written is the blob the plan announced, as git hashes it.
    expect(runGit(['hash-object', path.join(dir, 'notes.txt')])).toBe(plan.result.oid);

    // The restore point holds the whole folder as it was, the other file's edit too.
    expect(runGit(['--git-dir', engine.gitdir, 'show', `${result.preRollback.id}:other.txt`])).toBe('changed too');

    // Undo by restoring the restore point whole (as from the timeline): only the file comes back, the other edit stays.
    const undo = await restore.restore(dir, result.preRollback.id);
    expect(undo.status).toBe('complete');
    expect(undo.outcomes.map((outcome) => `${outcome.result} ${outcome.action} ${outcome.path}`)).toEqual([
      'done restore notes.txt',
    ]);
    expect(read('notes.txt')).toBe(edited);
    expect(read('other.txt')).toBe('changed too\n');
  });

  it('restores the rows picked in a diff, on the version they were picked on', async () => {
    writeFiles(dir, { 'notes.txt': original });
    const id = await checkpoint();
    writeFiles(dir, { 'notes.txt': edited });
    const diff = await diffs.fileDiff(dir, id, { kind: 'live' }, 'notes.txt');
    const lines = { kind: 'rows' as const, selection: { old: [{ from: 6, to: 6 }], new: [{ from: 6, to: 7 }] } };
    const result = await restore.restoreLines({ dir, ref: id, path: 'notes.txt', lines, basis: diff.newOid });
    expect(result.status).toBe('complete');
    expect(read('notes.txt')).toBe('one\nTWO\nTHREE\nFOUR\nfive\nsix\n');
  });

  it('restores several ranges of the checkpoint at once, each as `--lines` restores it, and refuses one outside it', async () => {
    writeFiles(dir, { 'notes.txt': original });
    const id = await checkpoint();
    writeFiles(dir, { 'notes.txt': edited });
    const ranges = [
      { from: 6, to: 6 },
      { from: 2, to: 2 },
    ];
    const plan = await restore.planLines({ dir, ref: id, path: 'notes.txt', lines: { kind: 'ranges', ranges } });
    expect(plan.selection).toEqual({
      old: [
        { from: 2, to: 2 },
        { from: 6, to: 6 },
      ],
      new: [
        { from: 2, to: 2 },
        { from: 6, to: 7 },
      ],
    });
    expect(read('notes.txt')).toBe(edited);
    const result = await restore.restoreLines(
      { dir, ref: id, path: 'notes.txt', lines: { kind: 'ranges', ranges } },
      plan.fingerprint,
    );
    expect(result.status).toBe('complete');
    expect(read('notes.txt')).toBe('one\ntwo\nTHREE\nFOUR\nfive\nsix\n');
    // The same file as two `--lines` restores, one range after the other.
    writeFiles(dir, { 'notes.txt': edited });
    await restore.restoreLines({
      dir,
      ref: id,
      path: 'notes.txt',
      lines: { kind: 'range', range: { from: 2, to: 2 } },
    });
    await restore.restoreLines({
      dir,
      ref: id,
      path: 'notes.txt',
      lines: { kind: 'range', range: { from: 6, to: 6 } },
    });
    expect(read('notes.txt')).toBe('one\ntwo\nTHREE\nFOUR\nfive\nsix\n');
    const refused = await refusal(
      restore.planLines({
        dir,
        ref: id,
        path: 'notes.txt',
        lines: { kind: 'ranges', ranges: [...ranges, { from: 7, to: 8 }] },
      }),
    );
    expect(refused).toMatchObject({ code: 'invalid_request', details: { field: 'lines' } });
  });

  it('refuses rows picked on a version the file no longer has, writing nothing and taking no snapshot, and offers the whole file', async () => {
    writeFiles(dir, { 'notes.txt': original });
    const id = await checkpoint();
    writeFiles(dir, { 'notes.txt': edited });
    const diff = await diffs.fileDiff(dir, id, { kind: 'live' }, 'notes.txt');
    writeFileSync(path.join(dir, 'notes.txt'), 'someone else wrote this\n');
    const count = await engine.count(dir);
    const refused = await refusal(
      restore.restoreLines({
        dir,
        ref: id,
        path: 'notes.txt',
        lines: { kind: 'rows', selection: { old: [{ from: 2, to: 2 }], new: [] } },
        basis: diff.newOid,
      }),
    );
    expect(refused.code).toBe('conflict');
    expect(refused.message).toBe(
      'notes.txt changed since its diff was shown, so the lines you picked may no longer be where they were: nothing was written. Look at the diff again and pick the lines, or restore the whole file.',
    );
    expect(refused.details).toMatchObject({ choice: 'restore-whole-file' });
    expect(read('notes.txt')).toBe('someone else wrote this\n');
    expect(await engine.count(dir)).toBe(count);
  });

  it('refuses a plan that the file moved away from, after its snapshot, and writes nothing', async () => {
    writeFiles(dir, { 'notes.txt': original });
    const id = await checkpoint();
    writeFiles(dir, { 'notes.txt': edited });
    const plan = await restore.planLines({
      dir,
      ref: id,
      path: 'notes.txt',
      lines: { kind: 'range', range: { from: 2, to: 2 } },
    });
    writeFileSync(path.join(dir, 'notes.txt'), `${edited}more\n`);
    const refused = await refusal(
      restore.restoreLines(
        { dir, ref: id, path: 'notes.txt', lines: { kind: 'range', range: { from: 2, to: 2 } } },
        plan.fingerprint,
      ),
    );
    expect(refused.code).toBe('conflict');
    expect(refused.message).toContain('notes.txt changed since these lines were planned, so nothing was restored');
    expect(read('notes.txt')).toBe(`${edited}more\n`);
  });

  it('refuses lines outside the checkpoint version with the valid range', async () => {
    writeFiles(dir, { 'notes.txt': original });
    const id = await checkpoint();
    writeFiles(dir, { 'notes.txt': edited });
    const refused = await refusal(
      restore.planLines({ dir, ref: id, path: 'notes.txt', lines: { kind: 'range', range: { from: 5, to: 9 } } }),
    );
    expect(refused).toMatchObject({
      code: 'invalid_request',
      details: { field: 'lines', validRange: { from: 1, to: 6 } },
    });
    expect(refused.message).toBe(
      `lines 5–9 are outside notes.txt in checkpoint ${id.slice(0, 8)}, which has 6 lines: use lines within 1–6.`,
    );
  });

  it('refuses a file that is not text, or not UTF-8, for a line restore, and keeps it as it is', async () => {
    writeFiles(dir, { 'keep.txt': 'k\n' });
    writeFileSync(path.join(dir, 'record.txt'), Buffer.from([1, 0, 2, 10, 3]));
    writeFileSync(path.join(dir, 'latin.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const id = await checkpoint();
    writeFileSync(path.join(dir, 'record.txt'), Buffer.from([1, 0, 2, 10, 4]));
    writeFileSync(path.join(dir, 'latin.txt'), Buffer.from([0x74, 0xe9, 0x0a]));
    const binary = await refusal(
      restore.planLines({ dir, ref: id, path: 'record.txt', lines: { kind: 'range', range: { from: 1, to: 1 } } }),
    );
    expect(binary).toMatchObject({ code: 'wrong_kind', details: { problem: 'binary', choice: 'restore-whole-file' } });
    expect(binary.message).toBe(
      `record.txt in checkpoint ${id.slice(0, 8)} is not text (it holds NUL bytes, as binary files do). Restore the whole file instead.`,
    );
    const latin = await refusal(
      restore.restoreLines({ dir, ref: id, path: 'latin.txt', lines: { kind: 'range', range: { from: 1, to: 1 } } }),
    );
    expect(latin).toMatchObject({ code: 'wrong_kind', details: { problem: 'not-utf8' } });
    expect(readFileSync(path.join(dir, 'latin.txt'))).toEqual(Buffer.from([0x74, 0xe9, 0x0a]));
  });

  it('refuses a file that is gone now, offering to restore it whole', async () => {
    writeFiles(dir, { 'notes.txt': original, 'keep.txt': 'k\n' });
    const id = await checkpoint();
    rmSync(path.join(dir, 'notes.txt'));
    const refused = await refusal(
      restore.planLines({ dir, ref: id, path: 'notes.txt', lines: { kind: 'range', range: { from: 1, to: 1 } } }),
    );
    expect(refused).toMatchObject({ code: 'not_found', details: { choice: 'restore-whole-file' } });
    expect(refused.message).toBe(
      `notes.txt does not exist in ${dir} now, so there are no lines to restore into: restore the whole file to bring it back.`,
    );
  });

  it('refuses a file behind a folder swapped for a symlink, naming the link, and reads and writes nothing outside', async () => {
    writeFiles(dir, { 'sub/notes.txt': original });
    const id = await checkpoint();
    writeFileSync(path.join(dir, 'sub', 'notes.txt'), edited);
    const outside = path.join(root, 'outside');
    writeFiles(outside, { 'notes.txt': 'OUTSIDE SECRET\n' });
    swapFolderForSymlink(path.join(dir, 'sub'), outside);
    const request = {
      dir,
      ref: id,
      path: 'sub/notes.txt',
      lines: { kind: 'range', range: { from: 2, to: 2 } },
    } as const;
    const expected = {
      code: 'wrong_kind',
      message: expect.stringContaining('sub is a symbolic link to a folder outside the workspace') as unknown,
    };
    expect(await refusal(restore.planLines(request))).toMatchObject(expected);
    expect(await refusal(restore.restoreLines(request))).toMatchObject(expected);
    expect(readFileSync(path.join(outside, 'notes.txt'), 'utf8')).toBe('OUTSIDE SECRET\n');
  });
});
