import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { restoreServiceFor, type RestoreGuard } from './restore-service';
import { writeFiles } from '../test-support/restore-fixtures';

/** The undo number a restore answers with: the pre-rollback snapshot's place in its timeline when the restore ends. */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let checkpointsRoot: string;
let engine: CheckpointService;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-undo-number-'));
  dir = path.join(root, 'project');
  checkpointsRoot = path.join(root, 'home', 'checkpoints');
  engine = new CheckpointService({ root: checkpointsRoot, logger: silentLogger });
});
afterEach(async () => {
  await engine.dispose();
  await remove();
});

async function checkpoint(reason: string): Promise<string> {
  const outcome = await engine.checkpoint(dir, { reason });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
  return outcome.checkpoint.id;
}

describe('the undo number of a restore', () => {
  it('counts a checkpoint taken after the pre-rollback snapshot, before the answer', async () => {
    writeFiles(dir, { 'a.txt': 'one\n' });
    const first = await checkpoint('first');
    writeFiles(dir, { 'a.txt': 'two\n' });
    await checkpoint('second');
    // Another writer's checkpoint lands once the restore's writes are done, before its number is read.
    let late: string | undefined;
    const guard: RestoreGuard = async (_dir, work) => {
      const done = await work();
      writeFileSync(path.join(dir, 'b.txt'), 'another writer\n');
      late = await checkpoint('another writer');
      return done;
    };
    const restore = restoreServiceFor(engine, checkpointsRoot, silentLogger, undefined, { guard });
    const result = await restore.restore(dir, first.slice(0, 12), ['a.txt']);
    const listed = (await engine.list(dir, { limit: 3 })).map((entry) => entry.id);
    expect(listed).toEqual([late, result.preRollback.id, expect.any(String)]);
    expect(result.undoNumber).toBe(2);
  });

  it("is found in the folder's own timeline when the restore was asked for through a link", async () => {
    writeFiles(dir, { 'a.txt': 'one\n' });
    await checkpoint('first');
    writeFiles(dir, { 'a.txt': 'two\n' });
    await checkpoint('second');
    const link = path.join(root, 'link');
    symlinkSync(dir, link);
    const restore = restoreServiceFor(engine, checkpointsRoot, silentLogger);
    const result = await restore.restore(link, '2', ['a.txt']);
    expect(result.preRollback.id).toBe((await engine.list(dir, { limit: 1 }))[0]?.id);
    expect(result.undoNumber).toBe(1);
  });
});
