import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import type { ListOptions } from '../checkpoint-types';
import { createPathScope } from '../compare';
import { StoreRules } from '../snapshot/store-rules';
import { forcedPaths } from './restore-forced';
import { createWriteLedger } from './restore-write-ledger';
import { entryOf, gitCommit, initBareStore, isoTreeReader, writeFiles } from '../test-support/restore-fixtures';

/**
 * The files a restore point must hold beyond the rules, for a checkpoint made by git's CLI (as
 * Hermes's are) holding files Vigil's rules leave out; the timeline is read only when it can matter.
 */

let root: string;
let remove: () => Promise<void>;
let store: string;
let dir: string;
let engine: CheckpointService;
let listings: number;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-restore-forced-'));
  store = path.join(root, 'store');
  dir = path.join(root, 'work');
  initBareStore(store);
  engine = new CheckpointService({ root: path.join(root, 'home', 'checkpoints'), logger: silentLogger });
  listings = 0;
});
afterEach(async () => {
  await engine.dispose();
  await remove();
});

const held = { 'app.py': 'print(1)\n', 'logo.png': 'PNG bytes v1', 'out/app.js': 'built v1\n' };

async function forced(paths: readonly string[]): Promise<string[]> {
  writeFiles(dir, held);
  const checkpoint = entryOf(store, dir, gitCommit(store, dir, 'hermes checkpoint', Object.keys(held)));
  return forcedPaths({
    engine: {
      list: (listed: string, options?: ListOptions) => {
        listings += 1;
        return engine.list(listed, options);
      },
      resolve: (resolved: string, ref: string) => engine.resolve(resolved, ref),
    },
    reader: isoTreeReader(store),
    checkpoint,
    scope: createPathScope(paths),
    rules: StoreRules.builtIn,
    isSecretWritten: () => true,
    ledger: createWriteLedger(path.join(root, 'home', 'checkpoints', 'written.jsonl')),
  });
}

describe('the files a restore point holds beyond the rules', () => {
  it('are none, without reading the timeline, when every named path is a file the rules store (or is not there)', async () => {
    expect(await forced(['app.py', 'gone.txt', 'out/gone.js'])).toEqual([]);
    expect(listings).toBe(0);
  });

  it('are found against the timeline when a named file is one the rules leave out', async () => {
    expect(await forced(['app.py', 'logo.png'])).toEqual(['logo.png']);
    expect(listings).toBe(1);
  });

  it('are found against the timeline for a named folder and for a whole restore', async () => {
    expect(await forced(['out'])).toEqual(['out/app.js']);
    expect(await forced([])).toEqual(['logo.png', 'out/app.js']);
    expect(listings).toBe(2);
  });
});
