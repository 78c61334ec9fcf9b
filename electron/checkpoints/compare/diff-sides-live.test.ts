import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { settleBeside, swapInFifo } from '../../test-support/fifo';
import { useCheckpointEngine } from '../test-support/engine-fixture';
import { writeFiles } from '../test-support/restore-fixtures';
import { createPathScope } from './diff-path-scope';
import { openDiffSides, readSideContent, type DiffSides } from './diff-sides';
import type { TreeChange } from './diff-tree-changes';

/**
 * A diff against the directory now lists the changes from a walk, then reads each changed file's
 * live side when it is shown: what an agent put at the name in between is told, never waited on
 * (a FIFO) or followed (a symlink). The walk's result is the seam: the swap comes after it.
 */

const fixture = useCheckpointEngine('vigil-diff-live-');

/** A checkpoint of `a.txt`, the file changed since, and the diff's two sides with the walk done (and that change). */
async function sidesWithAChanged(): Promise<{ sides: DiffSides; change: TreeChange }> {
  writeFiles(fixture.dir, { 'a.txt': 'one\n', 'secret.txt': 'not for the diff\n' });
  const outcome = await fixture.engine.checkpoint(fixture.dir, { reason: 'before write_file' });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
  writeFileSync(path.join(fixture.dir, 'a.txt'), 'one\ntwo\n');
  const rules = { maxFileBytes: fixture.engine.maxFileBytes, ignoredFolders: [] };
  const sides = await openDiffSides(
    fixture.engine,
    rules,
    fixture.dir,
    outcome.checkpoint.id,
    { kind: 'live' },
    createPathScope([]),
  );
  const [change] = sides.changes;
  if (change === undefined || sides.changes.length !== 1) throw new Error('expected one change');
  return { sides, change };
}

describe('the live side of a diff, when the file is swapped after the walk', () => {
  it.skipIf(process.platform === 'win32')('refuses a FIFO as not a regular file, at once', async () => {
    const { sides, change } = await sidesWithAChanged();
    const fifo = path.join(fixture.dir, 'a.txt');
    swapInFifo(fifo);
    const outcome = await settleBeside(readSideContent(fixture.engine, sides, 'new', change), fifo);
    expect(outcome).toMatchObject({ error: { code: 'wrong_kind', details: { path: fifo } } });
    expect((outcome as { error: Error }).error.message).toContain('not a regular file');
  });

  it('refuses a folder as a directory, as before', async () => {
    const { sides, change } = await sidesWithAChanged();
    rmSync(path.join(fixture.dir, 'a.txt'));
    mkdirSync(path.join(fixture.dir, 'a.txt'));
    await expect(readSideContent(fixture.engine, sides, 'new', change)).rejects.toMatchObject({
      code: 'wrong_kind',
      details: { errno: 'EISDIR' },
    });
  });

  it('reads a symlink put there as changed (empty, like a vanished file), never the file it points at', async () => {
    const { sides, change } = await sidesWithAChanged();
    rmSync(path.join(fixture.dir, 'a.txt'));
    symlinkSync(path.join(fixture.dir, 'secret.txt'), path.join(fixture.dir, 'a.txt'));
    const content = await readSideContent(fixture.engine, sides, 'new', change);
    expect(Buffer.from(content ?? []).toString()).toBe('');
  });
});
