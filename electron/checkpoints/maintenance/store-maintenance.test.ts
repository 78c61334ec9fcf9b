import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingLogger } from '../../hermes/test-support/recording-logger';
import { silentLogger } from '../../logging/logger';
import { FileLock, runOutsideFileLocks } from '../../locks/file-lock';
import { makeTempDir } from '../../test-support/temp-dir';
import { CheckpointService } from '../checkpoint-service';
import type { RetentionPolicy } from '../checkpoint-types';
import { collectGarbage } from '../../git-store/garbage-collector';
import { ObjectStore } from '../../git-store/object-store';
import { RefStore } from '../../git-store/ref-store';
import { storeLayout } from '../../git-store/store-layout';
import { Timeline } from '../timeline/timeline';
import { checkpointVersion, writeFiles } from '../test-support/restore-fixtures';
import { fsck, git } from '../test-support/store-fixtures';

/** Background garbage collection gives way to work that waits for the store lock, changing nothing. */

let root: string;
let remove: () => Promise<void>;
let dir: string;
let checkpointsRoot: string;
beforeEach(async () => {
  ({ dir: root, remove } = await makeTempDir('vigil-maintenance-'));
  dir = path.join(root, 'project');
  checkpointsRoot = path.join(root, 'home', 'checkpoints');
});
afterEach(async () => {
  await remove();
});

/** Every file under the store's objects folder, with its size: what a collection that changed nothing leaves alone. */
function objectFiles(gitdir: string): string[] {
  const objects = path.join(gitdir, 'objects');
  return readdirSync(objects, { recursive: true, encoding: 'utf8' })
    .filter((name) => statSync(path.join(objects, name)).isFile())
    .map((name) => `${name} ${statSync(path.join(objects, name)).size}`)
    .sort();
}

/** Runs `body` with an engine on the test's store (its log recorded), disposed after. */
async function withEngine(
  retention: Partial<RetentionPolicy>,
  body: (engine: CheckpointService, logger: ReturnType<typeof recordingLogger>) => Promise<void>,
): Promise<void> {
  const logger = recordingLogger();
  const engine = new CheckpointService({ root: checkpointsRoot, logger, retention });
  try {
    await body(engine, logger);
  } finally {
    await engine.dispose();
  }
}

/** The store's pack files. */
function packsOf(gitdir: string): string[] {
  return readdirSync(path.join(gitdir, 'objects', 'pack')).filter((name) => name.endsWith('.pack'));
}

/**
 * Runs a maintenance look and then `other` against the store lock, in this order, queued behind
 * another holder of the lock (as a one-shot CLI would be); resolves with both outcomes.
 */
async function maintainWhileWanted(
  engine: CheckpointService,
  other: () => Promise<unknown>,
): Promise<[unknown, unknown]> {
  const blocker = new FileLock({ path: storeLayout(checkpointsRoot).lockPath, resource: 'the checkpoint store' });
  const queued = async (count: number): Promise<void> => {
    while (blocker.waitingInLine() < count) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  let maintained: Promise<unknown> = Promise.resolve();
  let wanted: Promise<unknown> = Promise.resolve();
  await blocker.withLock(async () => {
    // Called from outside the blocker's hold, as separate tasks would be (not re-entering it).
    maintained = runOutsideFileLocks(() => engine.maintain());
    await queued(1);
    wanted = runOutsideFileLocks(other);
    await queued(2);
  });
  return [await maintained, await wanted];
}

describe('a garbage collection asked to give way', () => {
  it('stops mid-pack with the store exactly as it was, and collects in full when let be', async () => {
    // Two kept of three: the first version's 600 blobs are garbage; 1,200 reachable objects make
    // the collection consult shouldYield while it copies them into its new pack.
    const engine = new CheckpointService({
      root: checkpointsRoot,
      logger: silentLogger,
      retention: { maxSnapshots: 2 },
    });
    try {
      for (const label of ['one', 'two', 'three']) await checkpointVersion(engine, dir, label, 600);
    } finally {
      await engine.dispose();
    }
    const { gitdir } = storeLayout(checkpointsRoot);
    const store = new ObjectStore(gitdir);
    const timeline = new Timeline(store);
    const refs = new RefStore(gitdir);
    // The cut checkpoint waits in the recently dropped area: let it go, so its blobs are garbage.
    for (const ref of await refs.listDropped()) await refs.removeDropped(ref.dirhash, ref.name);
    const before = objectFiles(gitdir);
    const heads = git(['--git-dir', gitdir, 'for-each-ref', '--format=%(objectname)']);
    const held = (): Promise<void> => Promise.resolve();
    let asked = 0;
    try {
      const stopped = await collectGarbage(store, refs, timeline, held, { shouldYield: () => ++asked >= 2 });
      expect(stopped.gaveWay).toBe(true);
      expect(asked).toBe(2);
      // No new pack, no temporary file, nothing deleted; git finds the store whole.
      expect(objectFiles(gitdir)).toEqual(before);
      expect(fsck(gitdir)).toBe('');
      expect(git(['--git-dir', gitdir, 'for-each-ref', '--format=%(objectname)'])).toBe(heads);

      const collected = await collectGarbage(store, refs, timeline, held, { shouldYield: () => false });
      expect(collected.gaveWay).toBe(false);
      expect(collected.droppedObjects).toBeGreaterThanOrEqual(600);
      expect(packsOf(gitdir)).toHaveLength(1);
      expect(fsck(gitdir)).toBe('');
    } finally {
      await store.close();
    }
  });
});

describe('background maintenance', () => {
  it('gives way to a checkpoint that waits for the store lock, then collects once nothing waits', async () => {
    // Over 1,500 loose objects (batches under the pack threshold are written loose): untidy.
    await withEngine({ maxSnapshots: 2 }, async (engine, logger) => {
      for (const label of ['one', 'two', 'three', 'four']) await checkpointVersion(engine, dir, label, 500);
      const { gitdir } = storeLayout(checkpointsRoot);
      const before = objectFiles(gitdir);
      writeFiles(dir, { 'src/f0.txt': 'five 0\n' });
      const [maintained, checkpointed] = await maintainWhileWanted(engine, () =>
        engine.checkpoint(dir, { reason: 'five' }),
      );
      expect(maintained).toBe('gave-way');
      expect(logger.lines.some((line) => line.message.startsWith('checkpoint store maintenance gave way'))).toBe(true);
      expect(checkpointed).toMatchObject({ kind: 'created' });
      // The checkpoint added its objects; the collection had removed none.
      const after = new Set(objectFiles(gitdir));
      for (const file of before) expect(after.has(file)).toBe(true);
      expect(fsck(gitdir)).toBe('');

      // Nothing waits now: the next look collects.
      expect(await engine.maintain()).toBe('collected');
      expect(packsOf(gitdir)).toHaveLength(1);
      expect(fsck(gitdir)).toBe('');
      expect(await engine.list(dir)).toHaveLength(2);
    });
  }, 60_000);

  it('gives way at most five times in a row: the sixth look collects though work waits', async () => {
    await withEngine({ maxSnapshots: 2 }, async (engine) => {
      for (const label of ['one', 'two', 'three', 'four']) await checkpointVersion(engine, dir, label, 500);
      const outcomes: unknown[] = [];
      for (let round = 0; round < 6; round += 1) {
        const [maintained] = await maintainWhileWanted(engine, () => engine.withStoreLock(() => Promise.resolve()));
        outcomes.push(maintained);
      }
      expect(outcomes).toEqual(['gave-way', 'gave-way', 'gave-way', 'gave-way', 'gave-way', 'collected']);
      expect(fsck(storeLayout(checkpointsRoot).gitdir)).toBe('');
    });
  }, 60_000);

  it('over the size cap, collects garbage before dropping any checkpoint', async () => {
    // Three versions of 520 incompressible files (~1 MiB each, packed); two are kept, so one is
    // garbage. The cap holds two versions but not three: collecting is enough, dropping is not needed.
    await withEngine({ maxSnapshots: 2, maxTotalBytes: 2.6 * 1024 * 1024 }, async (engine, logger) => {
      for (const label of ['one', 'two', 'three']) {
        writeFiles(
          dir,
          Object.fromEntries(
            Array.from({ length: 520 }, (_, index) => [`src/f${index}.txt`, randomBytes(2048).toString('latin1')]),
          ),
        );
        const outcome = await engine.checkpoint(dir, { reason: label });
        expect(outcome.kind).toBe('created');
      }
      expect(await engine.list(dir)).toHaveLength(2);
      expect(await engine.maintain()).toBe('collected');
      expect(await engine.list(dir)).toHaveLength(2);
      expect(logger.lines.filter((line) => line.message.includes('size-cap'))).toEqual([]);
      expect(fsck(storeLayout(checkpointsRoot).gitdir)).toBe('');
    });
  }, 60_000);

  it('over the size cap with nothing to drop and no garbage, a look does not rewrite the store', async () => {
    await withEngine({ maxTotalBytes: 1024 }, async (engine, logger) => {
      await checkpointVersion(engine, dir, 'one', 20);
      const { gitdir } = storeLayout(checkpointsRoot);
      // The first look of a process collects (another process may have dropped checkpoints).
      expect(await engine.maintain()).toBe('collected');
      // A second checkpoint adds loose objects; the first, pinned, keeps both: nothing may be dropped.
      await checkpointVersion(engine, dir, 'two', 1);
      expect((await engine.pin(dir, '2', true)).changed).toBe(true);
      const before = objectFiles(gitdir);
      expect(await engine.maintain()).toBe('over-cap');
      // No collection rewrote the store into one pack: its loose objects are where they were.
      expect(objectFiles(gitdir)).toEqual(before);
      expect(logger.lines.filter((line) => line.message.includes('over its size cap'))).toHaveLength(2);
      expect(await engine.list(dir)).toHaveLength(2);
      expect(fsck(gitdir)).toBe('');
    });
  });
});

describe('a one-shot process at exit', () => {
  it('looks at the store only when it changed it: one whose checkpoint found nothing new leaves it to the next', async () => {
    // Over 1,500 loose objects, left by an engine that does not look at exit (a resident one's): untidy.
    // Its background look is held off meanwhile (as during a restore), so that no timer packs them first.
    const resident = new CheckpointService({ root: checkpointsRoot, logger: silentLogger, maintenance: true });
    try {
      await resident.duringRestore('0'.repeat(40), async () => {
        for (const label of ['one', 'two', 'three', 'four']) await checkpointVersion(resident, dir, label, 500);
      });
    } finally {
      await resident.dispose();
    }
    const { gitdir } = storeLayout(checkpointsRoot);
    const untidy = objectFiles(gitdir);
    expect(packsOf(gitdir)).toEqual([]);

    // A one-shot process whose checkpoint finds nothing new changes nothing, at exit either.
    await withEngine({}, async (engine) => {
      expect(await engine.checkpoint(dir, { reason: 'unchanged' })).toMatchObject({ kind: 'unchanged' });
    });
    expect(objectFiles(gitdir)).toEqual(untidy);

    // One that takes a checkpoint collects at exit: one pack, nothing loose left over from before.
    await withEngine({}, async (engine) => {
      await checkpointVersion(engine, dir, 'five', 1);
    });
    expect(packsOf(gitdir)).toHaveLength(1);
    expect(objectFiles(gitdir).filter((file) => untidy.includes(file))).toEqual([]);
    expect(fsck(gitdir)).toBe('');
  }, 60_000);
});
