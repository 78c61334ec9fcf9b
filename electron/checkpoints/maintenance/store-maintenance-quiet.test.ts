import { readdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingLogger, type RecordingLogger } from '../../hermes/test-support/recording-logger';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import type { QuietTiming } from './quiet-timer';
import { storeLayout } from '../../git-store/store-layout';
import { checkpointVersion } from '../test-support/restore-fixtures';
import { fsck } from '../test-support/store-fixtures';

/** A resident core's background collection waits for the store to be quiet, but never longer than its bound. */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let checkpointsRoot: string;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-quiet-maintenance-'));
  dir = path.join(root, 'project');
  checkpointsRoot = path.join(root, 'home', 'checkpoints');
});
afterEach(async () => {
  await remove();
});

/** How many pack files the store holds. */
function packCount(): number {
  const folder = path.join(storeLayout(checkpointsRoot).gitdir, 'objects', 'pack');
  return readdirSync(folder).filter((name) => name.endsWith('.pack')).length;
}

/** A background-maintaining engine (as a resident core's) on the test's store, with `timing`, disposed after. */
async function withEngine(
  timing: QuietTiming,
  body: (engine: CheckpointService, logger: RecordingLogger) => Promise<void>,
): Promise<void> {
  const logger = recordingLogger();
  const engine = new CheckpointService({ root: checkpointsRoot, logger, maintenance: true, maintenanceTiming: timing });
  try {
    await body(engine, logger);
  } finally {
    await engine.dispose();
  }
}

/** Ten versions of 520 files, one pack each, by an engine whose maintenance never gets to look: an untidy store. */
async function untidyStore(): Promise<void> {
  await withEngine({ quietMs: 600_000, maxWaitMs: 600_000 }, async (engine) => {
    for (let version = 0; version < 10; version += 1) await checkpointVersion(engine, dir, `v${version}`, 520);
  });
  expect(packCount()).toBeGreaterThan(8);
}

/** Whether a background collection started and gave way (work thrown away). */
function gaveWay(logger: RecordingLogger): boolean {
  return logger.lines.some((line) => line.message.startsWith('checkpoint store maintenance gave way'));
}

/** Checkpoints one changed file every ~50 ms until `isDone` or `forMs` pass; the pack counts seen after each. */
async function busySeries(engine: CheckpointService, forMs: number, isDone = (): boolean => false): Promise<number[]> {
  const seen: number[] = [];
  const until = performance.now() + forMs;
  for (let round = 0; performance.now() < until && !isDone(); round += 1) {
    await checkpointVersion(engine, dir, `busy ${round}`, 1);
    seen.push(packCount());
    await sleep(50);
  }
  return seen;
}

/** Waits (up to `forMs`) until the store holds at most `packs` packs; whether it came to that. */
async function packsFallTo(packs: number, forMs: number): Promise<boolean> {
  const until = performance.now() + forMs;
  while (performance.now() < until) {
    if (packCount() <= packs) return true;
    await sleep(50);
  }
  return packCount() <= packs;
}

describe('background store maintenance', () => {
  it('waits while checkpoints keep coming, and collects once the store is quiet', async () => {
    await untidyStore();
    const untidy = packCount();
    await withEngine({ quietMs: 1_500, maxWaitMs: 60_000 }, async (engine, logger) => {
      // Longer than a look used to wait (5 s after the first ask, busy or not): none starts, none gives way.
      const seen = await busySeries(engine, 7_000);
      expect(Math.min(...seen)).toBeGreaterThanOrEqual(untidy);
      expect(gaveWay(logger)).toBe(false);
      const quietFrom = performance.now();
      expect(await packsFallTo(2, 20_000)).toBe(true);
      expect(performance.now() - quietFrom).toBeGreaterThanOrEqual(1_000);
    });
    fsck(storeLayout(checkpointsRoot).gitdir);
  }, 60_000);

  it('still collects in a store that is never quiet, once its bound has passed', async () => {
    await untidyStore();
    await withEngine({ quietMs: 1_500, maxWaitMs: 2_500 }, async (engine) => {
      await busySeries(engine, 30_000, () => packCount() <= 2);
      expect(packCount()).toBeLessThanOrEqual(2);
    });
    fsck(storeLayout(checkpointsRoot).gitdir);
  }, 60_000);
});
