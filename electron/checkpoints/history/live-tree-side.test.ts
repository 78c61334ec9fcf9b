import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { settleBeside, swapInFifo } from '../../test-support/fifo';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import { createPathScope, readLiveTree } from '../compare';
import { writeFiles } from '../test-support/restore-fixtures';
import { allCheckpoints } from './file-history';
import { liveTreeSide } from './history-service';
import { searchText } from './text-search';

/**
 * A search of the past compares the newest checkpoint with the directory now: a walk, then each
 * changed file read from the disk. A FIFO an agent puts at a changed file's name after the walk
 * (the seam: the walk's tree is made, then the swap) is refused at once, never waited on.
 */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let engine: CheckpointService;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-history-live-'));
  dir = path.join(root, 'project');
  engine = new CheckpointService({ root: path.join(root, 'home', 'checkpoints'), logger: silentLogger });
});
afterEach(async () => {
  await engine.dispose();
  await remove();
});

it.skipIf(process.platform === 'win32')('refuses a FIFO put at a changed file after the walk, at once', async () => {
  writeFiles(dir, { 'src/app.ts': 'const a = 1;\n' });
  const outcome = await engine.checkpoint(dir, { reason: 'before write_file' });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
  writeFiles(dir, { 'src/app.ts': 'const a = 1;\nconsole.log("debug");\n' });
  const entries = await allCheckpoints(engine, dir);
  const rules = { maxFileBytes: engine.maxFileBytes, ignoredFolders: [] };
  const live = await readLiveTree(dir, rules, createPathScope([]));
  const store = { readTree: (oid: string) => engine.readTree(oid) };
  const fifo = path.join(dir, 'src', 'app.ts');
  swapInFifo(fifo);
  const found = await settleBeside(
    searchText(engine, entries, 'console.log', liveTreeSide(dir, live, store), 10),
    fifo,
  );
  expect(found).toMatchObject({ error: { code: 'wrong_kind', details: { path: fifo } } });
});
