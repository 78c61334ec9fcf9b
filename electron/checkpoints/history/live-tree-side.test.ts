import path from 'node:path';
import { expect, it } from 'vitest';
import { settleBeside, swapInFifo } from '../../test-support/fifo';
import { useCheckpointEngine } from '../test-support/engine-fixture';
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

const fixture = useCheckpointEngine('vigil-history-live-');

it.skipIf(process.platform === 'win32')('refuses a FIFO put at a changed file after the walk, at once', async () => {
  writeFiles(fixture.dir, { 'src/app.ts': 'const a = 1;\n' });
  const outcome = await fixture.engine.checkpoint(fixture.dir, { reason: 'before write_file' });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
  writeFiles(fixture.dir, { 'src/app.ts': 'const a = 1;\nconsole.log("debug");\n' });
  const entries = await allCheckpoints(fixture.engine, fixture.dir);
  const rules = { maxFileBytes: fixture.engine.maxFileBytes, ignoredFolders: [] };
  const live = await readLiveTree(fixture.dir, rules, createPathScope([]));
  const store = { readTree: (oid: string) => fixture.engine.readTree(oid) };
  const fifo = path.join(fixture.dir, 'src', 'app.ts');
  swapInFifo(fifo);
  const found = await settleBeside(
    searchText(fixture.engine, entries, 'console.log', liveTreeSide(fixture.dir, live, store), 10),
    fifo,
  );
  expect(found).toMatchObject({ error: { code: 'wrong_kind', details: { path: fifo } } });
});
