import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingLogger } from '../../hermes/test-support/recording-logger';
import { silentLogger } from '../../logging/logger';
import { makeTempDir } from '../../test-support/temp-dir';
import type { CheckpointApi } from '../checkpoint-api';
import { CheckpointService } from '../checkpoint-service';
import type { PruneReport } from '../checkpoint-types';
import { createRestoreService, restoreServiceFor, writeLedgerFile } from './restore-service';
import { createWriteLedger } from './restore-write-ledger';
import { runGit, writeFiles } from '../test-support/restore-fixtures';

/** Retention and maintenance never take away what a restore needs: its target stays on the timeline, its objects in the store. */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let checkpointsRoot: string;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-restore-retention-'));
  dir = path.join(root, 'project');
  checkpointsRoot = path.join(root, 'home', 'checkpoints');
});
afterEach(async () => {
  await remove();
});

async function take(engine: CheckpointService, files: Record<string, string>): Promise<string> {
  writeFiles(dir, files);
  const outcome = await engine.checkpoint(dir, { reason: 'before write_file' });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
  return outcome.checkpoint.id;
}

describe('retention around a restore', () => {
  it('keeps the oldest checkpoint on the timeline when it is restored at maxSnapshots, so the restore can be run again', async () => {
    const engine = new CheckpointService({
      root: checkpointsRoot,
      logger: silentLogger,
      retention: { maxSnapshots: 3 },
    });
    try {
      const restore = restoreServiceFor(engine, checkpointsRoot, silentLogger);
      const oldest = await take(engine, { 'a.txt': 'v1\n' });
      await take(engine, { 'a.txt': 'v2\n' });
      await take(engine, { 'a.txt': 'v3\n' });
      expect((await engine.list(dir)).map((entry) => entry.id).at(-1)).toBe(oldest);

      const result = await restore.restore(dir, oldest);
      expect(result.counts.done).toBe(1);
      expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('v1\n');
      // The pre-rollback snapshot made four; its target stays (the cut keeps one more, not fewer).
      const after = (await engine.list(dir)).map((entry) => entry.id);
      expect(after).toHaveLength(4);
      expect(after.at(-1)).toBe(oldest);
      expect((await engine.resolve(dir, oldest)).id).toBe(oldest);
      // Run again (as after a failure), and prune: the target and its objects are still there.
      writeFiles(dir, { 'a.txt': 'changed again\n' });
      expect((await restore.restore(dir, oldest)).counts.done).toBe(1);
      await engine.prune();
      expect((await engine.list(dir)).map((entry) => entry.id)).toContain(oldest);
      runGit(['--git-dir', engine.gitdir, 'cat-file', '-e', `${oldest}^{tree}`]);
      runGit(['--git-dir', engine.gitdir, 'fsck', '--full', '--strict', '--no-dangling']);

      // Once the pre-rollback snapshot leaves the newest three, the timeline is cut back to three.
      for (let index = 0; index < 3; index += 1) await take(engine, { 'a.txt': `later ${index}\n` });
      const trimmed = (await engine.list(dir)).map((entry) => entry.id);
      expect(trimmed).toHaveLength(3);
      expect(trimmed).not.toContain(oldest);
    } finally {
      await engine.dispose();
    }
  });

  it(
    'lets maintenance run during a restore without deleting the objects the restore reads',
    { timeout: 60_000 },
    async () => {
      const logger = recordingLogger();
      const engine = new CheckpointService({ root: checkpointsRoot, logger, retention: { maxSnapshots: 2 } });
      try {
        // Files too big for the store's in-memory object cache: every read goes to disk.
        const names = Array.from({ length: 20 }, (_, index) => `src/f${index}.txt`);
        const version = (label: string): Record<string, string> =>
          Object.fromEntries(names.map((name) => [name, `${label} ${name}\n${'x'.repeat(100_000)}\n`]));
        const target = await take(engine, version('one'));
        await take(engine, version('two'));
        writeFiles(dir, version('three'));

        // Maintenance starts at the restore's first blob read: it must not pull the blobs from under it.
        let pruned: Promise<PruneReport> | undefined;
        let gate: Promise<unknown> | undefined;
        const waiting = logger.waitFor('prune waits for the running restore');
        const pruneMidway = new Proxy(engine, {
          get(object, property) {
            if (property === 'readBlob') {
              return async (oid: string) => {
                // Every read waits until the prune finished, or said it waits for the restore.
                if (gate === undefined) {
                  pruned = object.prune();
                  gate = Promise.race([pruned, waiting]);
                }
                await gate;
                return object.readBlob(oid);
              };
            }
            const value: unknown = Reflect.get(object, property, object);
            return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
          },
        }) as CheckpointApi;
        const restore = createRestoreService({
          engine: pruneMidway,
          ledger: createWriteLedger(writeLedgerFile(checkpointsRoot), silentLogger),
          root: checkpointsRoot,
          maxFileBytes: engine.maxFileBytes,
          ignoredFolders: [checkpointsRoot],
          logger: silentLogger,
        });
        const result = await restore.restore(dir, target);
        expect(result.counts).toEqual({ done: names.length, skipped: 0, conflict: 0, failed: 0 });
        expect(result.isVerified).toBe(true);
        for (const [name, content] of Object.entries(version('one')))
          expect(readFileSync(path.join(dir, name), 'utf8')).toBe(content);
        // Maintenance did run (after the restore), and the restored checkpoint is still there to restore again.
        expect(pruned).toBeDefined();
        await pruned;
        expect((await engine.list(dir)).map((entry) => entry.id)).toContain(target);
        runGit(['--git-dir', engine.gitdir, 'fsck', '--full', '--strict', '--no-dangling']);
      } finally {
        await engine.dispose();
      }
    },
  );
});
