import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { useTempFixture } from '../../test-support/temp-fixture';
import { CheckpointService } from '../checkpoint-service';
import { makeTrackedOddsClone } from '../test-support/nested-clones';
import { writeFiles } from '../test-support/restore-fixtures';
import { created } from '../test-support/store-fixtures';
import { diffServiceFor } from './diff-service';

/**
 * The live side of a diff is judged by the repositories on disk now, as a checkpoint taken now
 * would judge it: a clone made since the last checkpoint is seen before the next checkpoint,
 * whether the diff covers the whole folder or some paths.
 */

const fixture = useTempFixture('vigil-diff-new-clone-', (root) => ({
  ws: path.join(root, 'ws'),
  storeRoot: path.join(root, 'home', 'checkpoints'),
}));

/** What `vigil checkpoints diff` lists against the folder now, each CLI command being a fresh process. */
async function diffNow(ref: string, paths: readonly string[] = []): Promise<string[]> {
  const engine = new CheckpointService({ root: fixture().storeRoot, logger: silentLogger });
  try {
    const page = await diffServiceFor(engine, fixture().storeRoot).diff(fixture().ws, ref, { kind: 'live' }, { paths });
    return page.files.map((file) => `${file.status} ${file.path}`);
  } finally {
    await engine.dispose();
  }
}

/** A checkpoint of the folder as it is, taken by a process of its own. */
async function checkpointNow(): Promise<string> {
  const engine = new CheckpointService({ root: fixture().storeRoot, logger: silentLogger });
  try {
    return created(await engine.checkpoint(fixture().ws, { reason: 'before write_file' })).id;
  } finally {
    await engine.dispose();
  }
}

/** A checkpoint of a folder with one file, then a clone made in it (`a`, tracking files the built-in names leave out). */
async function cloneSinceCheckpoint(): Promise<string> {
  const { ws } = fixture();
  writeFiles(ws, { 'top.txt': 'top\n' });
  const id = await checkpointNow();
  makeTrackedOddsClone(path.join(ws, 'a'));
  return id;
}

describe('a diff against the folder now, after a clone was made in it', () => {
  it('lists every file the clone tracks, those the built-in names leave out too', async () => {
    const id = await cloneSinceCheckpoint();
    const added = ['a/build/out.js', 'a/db.sqlite', 'a/logo.png', 'a/notes.log', 'a/readme.md'];
    expect(await diffNow(id)).toEqual(added.map((item) => `added ${item}`));
  });

  it('of chosen paths, judges them by the clone on the way to them', async () => {
    const id = await cloneSinceCheckpoint();
    expect(await diffNow(id, ['a/logo.png'])).toEqual(['added a/logo.png']);
    expect(await diffNow(id, ['a/build'])).toEqual(['added a/build/out.js']);
    expect(await diffNow(id, ['a'])).toHaveLength(5);
  });
});
