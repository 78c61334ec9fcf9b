import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { makeTempDir } from '../test-support/temp-dir';
import { editFileAtomic } from './edit-file-atomic';
import { writeFileAtomic } from './atomic-write';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-edit-'));
});
afterEach(async () => {
  await remove();
});

describe('editFileAtomic', () => {
  it('reads, edits and replaces the file atomically, keeping its mode', async () => {
    const target = path.join(dir, 'counter.txt');
    writeFileSync(target, '0', { mode: 0o640 });
    await Promise.all(
      Array.from({ length: 20 }, () => editFileAtomic(target, (current) => String(Number(current.toString()) + 1))),
    );
    // Every edit saw the previous one's result: the lock serialized the read-modify-writes.
    expect(readFileSync(target, 'utf8')).toBe('20');
    expect(statSync(target).mode & 0o777).toBe(0o640);
  });

  it('serializes with plain atomic writes to the same path: no edit is lost', async () => {
    const target = path.join(dir, 'shared.txt');
    writeFileSync(target, 'start');
    await Promise.all(
      Array.from({ length: 20 }, () => editFileAtomic(target, (current) => `${current.toString()}+edit`)),
    );
    expect(readFileSync(target, 'utf8')).toBe(`start${'+edit'.repeat(20)}`);
    // Mixed with a plain write, the outcome is one of the serial orders (never "start+edit": a lost update).
    await Promise.all([
      editFileAtomic(target, (current) => `${current.toString()}+edit`),
      writeFileAtomic(target, 'overwritten'),
      editFileAtomic(target, (current) => `${current.toString()}+edit`),
    ]);
    expect(readFileSync(target, 'utf8')).toMatch(/^overwritten(\+edit){0,2}$/);
  });

  it('refuses when another program changes the file between the read and the rename', async () => {
    const target = path.join(dir, 'raced.txt');
    writeFileSync(target, 'version 1');
    const edit = editFileAtomic(target, (current) => {
      // Another program (not Vigil, so not under Vigil's lock) rewrites the file in place meanwhile.
      writeFileSync(target, 'version 2 from elsewhere');
      return `${current.toString()} edited`;
    });
    await expect(edit).rejects.toMatchObject({ code: 'conflict' });
    expect(readFileSync(target, 'utf8')).toBe('version 2 from elsewhere');
  });

  it('writes nothing when the edit refuses, the file is missing, a directory or too large', async () => {
    const target = path.join(dir, 'keep.txt');
    writeFileSync(target, 'keep');
    await expect(editFileAtomic(target, () => Promise.reject(new AppError('no_match', 'nope')))).rejects.toMatchObject({
      code: 'no_match',
    });
    expect(readFileSync(target, 'utf8')).toBe('keep');
    await expect(editFileAtomic(path.join(dir, 'missing.txt'), () => 'x')).rejects.toMatchObject({ code: 'not_found' });
    mkdirSync(path.join(dir, 'folder'));
    await expect(editFileAtomic(path.join(dir, 'folder'), () => 'x')).rejects.toMatchObject({ code: 'wrong_kind' });
    await expect(editFileAtomic(target, () => 'x', { maxBytes: 2 })).rejects.toMatchObject({ code: 'limit_exceeded' });
    expect(readFileSync(target, 'utf8')).toBe('keep');
  });
});
