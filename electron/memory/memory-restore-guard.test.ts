import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CheckpointService, loadCheckpointService, loadRestoreService, type RestoreService } from '../checkpoints';
import { startHermesLock } from '../hermes/test-support/hermes-lock-process';
import { recordingLogger, type RecordingLogger } from '../hermes/test-support/recording-logger';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { memoryDirectoryId } from './memory-config';
import { createMemoryService, type MemoryService } from './memory-service';
import { ChangeRecorder } from './test-support/change-recorder';
import { memoryServiceFor } from './test-support/memory-fixtures';

const { CheckpointService: CheckpointEngine } = await loadCheckpointService();
const { restoreServiceFor } = await loadRestoreService();

let temp: { dir: string; remove: () => Promise<void> };
let memories: string;
let file: string;
let checkpoints: CheckpointService;
let logger: RecordingLogger;
let memory: MemoryService;
let restore: RestoreService;

beforeEach(async () => {
  temp = await makeTempDir();
  memories = path.join(temp.dir, 'hermes', 'memories');
  file = path.join(memories, 'MEMORY.md');
  await mkdir(memories, { recursive: true });
  checkpoints = new CheckpointEngine({ root: path.join(temp.dir, 'checkpoints'), logger: silentLogger });
  logger = recordingLogger();
  memory = await createMemoryService({
    directories: [
      {
        id: memoryDirectoryId(memories),
        path: memories,
        label: 'Hermes memories',
        source: 'hermes',
        limits: { memory: 2200, user: 1375 },
      },
    ],
    logger,
    checkpoints,
    watch: {},
  });
  restore = restoreServiceFor(checkpoints, path.join(temp.dir, 'checkpoints'), logger, undefined, {
    guard: memory.guardRestore,
  });
});
afterEach(async () => {
  await memory.dispose();
  await checkpoints.dispose();
  await temp.remove();
});

/** The checkpoint of the memory folder whose MEMORY.md is `text`. */
async function checkpointHolding(text: string): Promise<string> {
  for (const entry of await checkpoints.list(memories)) {
    const stored = (await checkpoints.readTree(entry.tree)).find((item) => item.name === 'MEMORY.md');
    if (stored !== undefined && Buffer.from(await checkpoints.readBlob(stored.oid)).toString('utf8') === text)
      return entry.id;
  }
  throw new Error(`no checkpoint holds ${text}`);
}

describe('a checkpoint restore of a memory folder', () => {
  it("waits for Hermes's flock, and is reported as Vigil's restore here and in another Vigil process", async () => {
    await memory.mutate(memories, 'memory', { action: 'add', content: 'likes tea' });
    await memory.mutate(memories, 'memory', { action: 'add', content: 'uses vim' });
    await memory.settled();
    const target = await checkpointHolding('likes tea\n');
    const here = new ChangeRecorder(memory);
    const elsewhere = await memoryServiceFor(memories, { watch: {} });
    const there = new ChangeRecorder(elsewhere);
    try {
      const hermes = startHermesLock('hold', `${file}.lock`);
      expect(await hermes.next()).toBe('locked');
      const restoring = restore.restore(memories, target);
      const outcome = await Promise.race([
        restoring.then(() => 'restored while Hermes held its lock'),
        logger.waitFor('waiting for MEMORY.md.lock').then(() => 'waited for Hermes'),
      ]);
      expect(outcome).toBe('waited for Hermes');
      hermes.send('release');
      const result = await restoring;
      // MEMORY.md only: Hermes's lock sidecars are never replaced or deleted by a restore.
      expect(result.outcomes.filter((item) => item.action !== 'skip').map((item) => [item.path, item.result])).toEqual([
        ['MEMORY.md', 'done'],
      ]);
      expect(await readFile(file, 'utf8')).toBe('likes tea\n');
      // USER.md, which the restore left alone and Vigil never wrote, keeps no record.
      expect(await readdir(memories)).not.toContain('.USER.md.vigil-record');
      const isRestored = (change: { current: { entries: string[] } }): boolean =>
        change.current.entries.join('|') === 'likes tea';
      expect(await here.waitFor('the restore, here', isRestored)).toMatchObject({
        source: 'vigil',
        isRestore: true,
        diff: { removed: ['uses vim'] },
      });
      expect(await there.waitFor('the restore, in another service', isRestored)).toMatchObject({
        source: 'vigil',
        isRestore: true,
      });
    } finally {
      here.dispose();
      there.dispose();
      await elsewhere.dispose();
    }
  });
});
