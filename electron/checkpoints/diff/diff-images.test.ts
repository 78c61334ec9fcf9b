import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { runVigil } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { diffServiceFor } from './diff-service';
import { runGit, writeFiles } from '../test-support/restore-fixtures';

/** A binary file's diff says "binary, N → M bytes"; an image's carries both versions for the side-by-side view. */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let home: string;
const before = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2]);
const after = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3, 4, 5]);

beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-diff-images-'));
  dir = path.join(root, 'project');
  home = path.join(root, 'home');
  mkdirSync(dir, { recursive: true });
  runGit(['init', '-q', dir]);
  writeFiles(dir, { 'img/logo.png': { content: before }, 'a.txt': 'a\n' });
  runGit(['add', '-A'], { cwd: dir });
});
afterEach(async () => {
  await remove();
});

describe('a tracked image that changed', () => {
  it('is binary with both sizes, and both versions come as data: URLs of their exact bytes', async () => {
    const engine = new CheckpointService({ root: path.join(home, 'checkpoints'), logger: silentLogger });
    try {
      const created = await engine.checkpoint(dir, { reason: 'before write_file' });
      if (created.kind !== 'created') throw new Error('expected a checkpoint');
      writeFileSync(path.join(dir, 'img', 'logo.png'), after);
      const diffs = diffServiceFor(engine, path.join(home, 'checkpoints'));
      const diff = await diffs.fileDiff(dir, created.checkpoint.id, { kind: 'live' }, 'img/logo.png');
      expect(diff).toMatchObject({ kind: 'binary', status: 'modified', oldSize: 11, newSize: 14 });
      const decode = (url: string | undefined): Buffer =>
        Buffer.from((url ?? '').replace(/^data:image\/png;base64,/, ''), 'base64');
      expect(diff.images?.old?.startsWith('data:image/png;base64,')).toBe(true);
      expect(decode(diff.images?.old)).toEqual(before);
      expect(decode(diff.images?.new)).toEqual(after);
      const text = await diffs.fileDiff(dir, created.checkpoint.id, { kind: 'live' }, 'a.txt').catch(() => undefined);
      expect(text?.images).toBeUndefined();
    } finally {
      await engine.dispose();
    }
  });

  it('vigil checkpoints diff says "binary, N → M bytes"', async () => {
    const env = { VIGIL_HOME: home, HOME: home };
    expect((await runVigil(['checkpoint', dir, '--local'], { env })).code).toBe(0);
    writeFileSync(path.join(dir, 'img', 'logo.png'), after);
    const run = await runVigil(['checkpoints', 'diff', dir, '1', 'img/logo.png', '--local'], { env });
    expect(run.stdout, run.stderr).toContain('(binary, 11 → 14 bytes)');
  }, 60_000);
});
