import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { settleBeside, swapInFifo } from '../../test-support/fifo';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { writeFiles } from '../test-support/restore-fixtures';
import { createPathScope } from './diff-path-scope';
import { openDiffSides, readSideContent, type DiffSides } from './diff-sides';
import type { TreeChange } from './diff-tree-changes';

/**
 * A diff against the directory now lists the changes from a walk, then reads each changed file's
 * live side when it is shown: what an agent put at the name in between is told, never waited on
 * (a FIFO) or followed (a symlink). The walk's result is the seam: the swap comes after it.
 */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let engine: CheckpointService;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-diff-live-'));
  dir = path.join(root, 'project');
  engine = new CheckpointService({ root: path.join(root, 'home', 'checkpoints'), logger: silentLogger });
});
afterEach(async () => {
  await engine.dispose();
  await remove();
});

/** A checkpoint of `a.txt`, the file changed since, and the diff's two sides with the walk done (and that change). */
async function sidesWithAChanged(): Promise<{ sides: DiffSides; change: TreeChange }> {
  writeFiles(dir, { 'a.txt': 'one\n', 'secret.txt': 'not for the diff\n' });
  const outcome = await engine.checkpoint(dir, { reason: 'before write_file' });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
  writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\n');
  const rules = { maxFileBytes: engine.maxFileBytes, ignoredFolders: [] };
  const sides = await openDiffSides(engine, rules, dir, outcome.checkpoint.id, { kind: 'live' }, createPathScope([]));
  const [change] = sides.changes;
  if (change === undefined || sides.changes.length !== 1) throw new Error('expected one change');
  return { sides, change };
}

describe('the live side of a diff, when the file is swapped after the walk', () => {
  it.skipIf(process.platform === 'win32')('refuses a FIFO as not a regular file, at once', async () => {
    const { sides, change } = await sidesWithAChanged();
    const fifo = path.join(dir, 'a.txt');
    swapInFifo(fifo);
    const outcome = await settleBeside(readSideContent(engine, sides, 'new', change), fifo);
    expect(outcome).toMatchObject({ error: { code: 'wrong_kind', details: { path: fifo } } });
    expect((outcome as { error: Error }).error.message).toContain('not a regular file');
  });

  it('refuses a folder as a directory, as before', async () => {
    const { sides, change } = await sidesWithAChanged();
    rmSync(path.join(dir, 'a.txt'));
    mkdirSync(path.join(dir, 'a.txt'));
    await expect(readSideContent(engine, sides, 'new', change)).rejects.toMatchObject({
      code: 'wrong_kind',
      details: { errno: 'EISDIR' },
    });
  });

  it('reads a symlink put there as changed (empty, like a vanished file), never the file it points at', async () => {
    const { sides, change } = await sidesWithAChanged();
    rmSync(path.join(dir, 'a.txt'));
    symlinkSync(path.join(dir, 'secret.txt'), path.join(dir, 'a.txt'));
    const content = await readSideContent(engine, sides, 'new', change);
    expect(Buffer.from(content ?? []).toString()).toBe('');
  });
});
