import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import type { CheckpointApi } from '../checkpoint-api';
import { CheckpointService } from '../checkpoint-service';
import { createRestoreService, writeLedgerFile } from './restore-service';
import { createWriteLedger } from './restore-write-ledger';
import { writeFiles } from '../test-support/restore-fixtures';

/** A write that fails because its folder cannot exist any more fails alone: the restore still reports every outcome. */

let root: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-restore-failed-folder-'));
});
afterEach(async () => {
  await remove();
});

describe('a restore whose write into a vanished folder fails', () => {
  it('reports that file failed and the others done, with its undo point, instead of failing as a whole', async () => {
    const dir = path.join(root, 'project');
    const checkpointsRoot = path.join(root, 'home', 'checkpoints');
    const engine = new CheckpointService({ root: checkpointsRoot, logger: silentLogger });
    try {
      writeFiles(dir, { 'keep.txt': 'kept v1\n', 'gone/deep/x.txt': 'x v1\n' });
      const taken = await engine.checkpoint(dir, { reason: 'before write_file' });
      if (taken.kind !== 'created') throw new Error('expected a checkpoint');
      // The user deletes the folder and changes keep.txt; once the restore has taken its
      // pre-rollback snapshot (its first blob read), another program puts a file where the folder was.
      rmSync(path.join(dir, 'gone'), { recursive: true });
      writeFileSync(path.join(dir, 'keep.txt'), 'kept v2\n');
      let isBlocked = false;
      const blocking = new Proxy(engine, {
        get(object, property) {
          if (property === 'readBlob') {
            return (oid: string) => {
              if (!isBlocked) {
                isBlocked = true;
                writeFileSync(path.join(dir, 'gone'), 'a file, not a folder\n');
              }
              return object.readBlob(oid);
            };
          }
          const value: unknown = Reflect.get(object, property, object);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
        },
      }) as CheckpointApi;
      const restore = createRestoreService({
        engine: blocking,
        ledger: createWriteLedger(writeLedgerFile(checkpointsRoot), silentLogger),
        root: checkpointsRoot,
        maxFileBytes: engine.maxFileBytes,
        ignoredFolders: [checkpointsRoot],
        logger: silentLogger,
      });
      const result = await restore.restore(dir, taken.checkpoint.id);
      expect(isBlocked).toBe(true);
      expect(result.status).toBe('incomplete');
      expect(result.counts).toMatchObject({ done: 1, failed: 1 });
      expect(result.outcomes.find((outcome) => outcome.path === 'gone/deep/x.txt')?.result).toBe('failed');
      expect(result.outcomes.find((outcome) => outcome.path === 'keep.txt')?.result).toBe('done');
      expect(result.preRollback.id).toMatch(/^[0-9a-f]{40}$/);
      expect(readFileSync(path.join(dir, 'keep.txt'), 'utf8')).toBe('kept v1\n');
    } finally {
      await engine.dispose();
    }
  });
});
