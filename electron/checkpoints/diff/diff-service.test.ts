import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { diffServiceFor, type DiffService } from './diff-service';
import { writeFiles } from '../test-support/restore-fixtures';

/** The diff service with the real engine: a checkpoint against the directory now, and against another checkpoint. */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let engine: CheckpointService;
let diffs: DiffService;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-diff-service-'));
  dir = path.join(root, 'project');
  const checkpointsRoot = path.join(root, 'home', 'checkpoints');
  engine = new CheckpointService({ root: checkpointsRoot, logger: silentLogger, maxFileBytes: 1024 });
  diffs = diffServiceFor(engine, checkpointsRoot);
});
afterEach(async () => {
  await engine.dispose();
  await remove();
});

const base = {
  'a.txt': 'original a\n',
  'src/app.ts': 'export const app = 1;\n',
  'gone.txt': 'will be deleted\n',
  'node_modules/dep/index.js': 'dep v1\n',
  '.env': 'SECRET=one\n',
  'big.txt': 'b'.repeat(4096),
};

async function checkpoint(reason = 'before write_file'): Promise<string> {
  const outcome = await engine.checkpoint(dir, { reason });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
  return outcome.checkpoint.id;
}

describe('diff service', () => {
  it('shows a diff against the directory now, never listing excluded files as deleted', async () => {
    writeFiles(dir, base);
    const id = await checkpoint();
    writeFiles(dir, {
      'a.txt': 'original a\nand one more line\n',
      'new.txt': 'new\n',
      'node_modules/dep/index.js': 'dep v2\n',
    });
    rmSync(path.join(dir, '.env'));
    rmSync(path.join(dir, 'gone.txt'));
    const page = await diffs.diff(dir, id, { kind: 'live' });
    expect(page.files.map((file) => `${file.status} ${file.path} +${file.additions} -${file.deletions}`)).toEqual([
      'modified a.txt +1 -0',
      'deleted gone.txt +0 -1',
      'added new.txt +1 -0',
    ]);
    const one = await diffs.fileDiff(dir, id, { kind: 'live' }, 'a.txt');
    expect(one.hunks).toEqual([
      { oldStart: 1, oldLines: 1, newStart: 1, newLines: 2, lines: [' original a', '+and one more line'] },
    ]);
    writeFileSync(path.join(dir, 'a.txt'), 'changed again\n');
    const second = await checkpoint();
    const between = await diffs.diff(dir, id, { kind: 'checkpoint', ref: second });
    expect(between.files.map((file) => file.path)).toEqual(['a.txt', 'gone.txt', 'new.txt']);
    expect(between.to).toMatchObject({ kind: 'checkpoint', checkpoint: { id: second } });
  });
});
