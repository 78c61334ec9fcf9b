import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../shared/contract';
import { EventHub } from '../lib/event-hub';
import { makeTempDir } from '../test-support/temp-dir';
import type { CheckpointService } from './checkpoint-service';
import type { CheckpointEntry } from './checkpoint-types';
import { cutLogFile } from './maintenance/cut-log';
import { fsck, git, testService, writeTree } from './test-support/store-fixtures';

describe('pins and cuts: nothing is dropped silently, a pinned checkpoint never', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let root: string;
  let service: CheckpointService;
  let events: EventHub;
  let cuts: Array<EventPayload<'checkpoints:cut'>>;

  async function takeCheckpoints(target: string, count: number, from = 0): Promise<CheckpointEntry[]> {
    const taken: CheckpointEntry[] = [];
    for (let index = from; index < from + count; index += 1) {
      writeFileSync(path.join(target, 'n.txt'), `version ${index}\n${'x'.repeat(index * 10)}`);
      const outcome = await service.checkpoint(target, { reason: `step ${index}` });
      if (outcome.kind !== 'created') throw new Error('expected a checkpoint');
      taken.push(outcome.checkpoint);
    }
    return taken;
  }

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-pins-'));
    dir = path.join(base, 'work');
    mkdirSync(dir);
    writeTree(dir, { 'keep.txt': 'unchanging\n' });
    root = path.join(base, 'home/checkpoints');
    events = new EventHub();
    cuts = [];
    events.on('checkpoints:cut', (cut) => cuts.push(cut));
  });
  afterEach(async () => {
    await service.dispose();
    await remove();
  });

  it('keeps a pinned checkpoint through retention cuts, reports every cut, and lets it go once unpinned', async () => {
    service = testService(root, { retention: { maxSnapshots: 3 }, events });
    const taken = await takeCheckpoints(dir, 3);
    const pinned = taken[0]?.id ?? '';
    const pins: Array<EventPayload<'checkpoints:pin-changed'>> = [];
    events.on('checkpoints:pin-changed', (pin) => pins.push(pin));
    expect(await service.pin(dir, '3', true)).toEqual({ dir, id: pinned, isPinned: true, changed: true });
    expect(await service.pin(dir, pinned.slice(0, 10), true)).toMatchObject({ changed: false });
    expect(pins).toEqual([{ dir, id: pinned, isPinned: true }]);

    await takeCheckpoints(dir, 4, 3);
    const listed = await service.list(dir, { limit: 100 });
    // Everything from the newest down to the pinned one is kept: 7 checkpoints while the pin stands.
    expect(listed.map((entry) => entry.id)).toContain(pinned);
    expect(listed.find((entry) => entry.id === pinned)?.isPinned).toBe(true);
    expect(listed).toHaveLength(7);
    expect(cuts).toEqual([]);

    await service.pin(dir, pinned, false);
    await takeCheckpoints(dir, 1, 7);
    expect(await service.count(dir)).toBe(3);
    expect(cuts).toEqual([
      expect.objectContaining({
        dir,
        dirhash: expect.any(String) as unknown,
        dropped: 5,
        kept: 3,
        reason: 'retention',
        retention: { maxSnapshots: 3, maxTotalBytes: expect.any(Number) as unknown, keepDroppedDays: 7 },
      }),
    ]);
    expect(cuts[0]?.message).toBe(
      `Dropped 5 old checkpoints of ${dir}: Vigil keeps 3 per folder (checkpoints.maxSnapshots in config.json); 3 kept; the dropped ones stay restorable for 7 days ("vigil checkpoints list DIR --dropped").`,
    );
    // The cut is on record for `vigil checkpoints status` (and any other process), newest first.
    const logged = (await readFile(cutLogFile(root), 'utf8')).trim().split('\n');
    expect(logged).toHaveLength(1);
    expect((await service.status(dir)).cuts).toEqual([cuts[0]]);
    expect(fsck(service.gitdir)).toBe('');
  });

  it('sees a pin and a cut another process made between two of its checkpoints (each hold reads them anew)', async () => {
    service = testService(root, { retention: { maxSnapshots: 3 }, events });
    const other = testService(root, { retention: { maxSnapshots: 3 } });
    try {
      const taken = await takeCheckpoints(dir, 3);
      const oldest = taken[0]?.id ?? '';
      // The other process pins the oldest: this one's next checkpoint keeps it.
      await other.pin(dir, oldest, true);
      await takeCheckpoints(dir, 1, 3);
      expect(await service.count(dir)).toBe(4);
      expect(cuts).toEqual([]);
      // It unpins it and cuts with its own checkpoint (a new shallow list): this one's next cut starts from there.
      await other.pin(dir, oldest, false);
      writeFileSync(path.join(dir, 'n.txt'), 'from the other process\n');
      await other.checkpoint(dir, { reason: 'other' });
      expect(await other.count(dir)).toBe(3);
      await takeCheckpoints(dir, 1, 5);
      expect(await service.count(dir)).toBe(3);
      expect(cuts.map((cut) => cut.dropped)).toEqual([1]);
      expect(fsck(service.gitdir)).toBe('');
    } finally {
      await other.dispose();
    }
  });

  it('keeps pinned checkpoints under the size cap and reports what the cap and prune dropped', async () => {
    service = testService(root, { retention: { maxSnapshots: 100, maxTotalBytes: 1 }, events });
    const other = path.join(base, 'other');
    mkdirSync(other);
    const taken = await takeCheckpoints(dir, 5);
    await takeCheckpoints(other, 3);
    const pinned = taken[1]?.id ?? '';
    await service.pin(dir, pinned, true);
    const report = await service.prune();
    // dir keeps its newest down to the pinned one (4 of 5); other keeps only its newest.
    expect(await service.count(dir)).toBe(4);
    expect(await service.count(other)).toBe(1);
    expect(report.droppedCheckpoints).toBe(3);
    expect(git(['--git-dir', service.gitdir, 'cat-file', '-t', pinned])).toBe('commit');
    // Per folder, what the cap dropped (checkpoints of the same second may be cut in one round or two).
    const droppedPerFolder = new Map<string, number>();
    for (const cut of cuts) {
      expect(cut.reason).toBe('size-cap');
      droppedPerFolder.set(cut.dir, (droppedPerFolder.get(cut.dir) ?? 0) + cut.dropped);
    }
    expect(Object.fromEntries(droppedPerFolder)).toEqual({ [dir]: 1, [other]: 2 });
    expect(cuts.reduce((sum, cut) => sum + cut.dropped, 0)).toBe(report.droppedCheckpoints);
    for (const cut of cuts)
      expect(cut.message).toMatch(
        /to keep the store under its 0 MiB size cap \(checkpoints\.maxStoreMiB in config\.json\)/,
      );
    const status = await service.status();
    expect(status.directories.find((directory) => directory.dir === dir)?.pinned).toBe(1);
    expect(status.cuts).toHaveLength(cuts.length);
    expect(fsck(service.gitdir)).toBe('');
  });

  it('applies new settings at once: a raised maxSnapshots cuts nothing, a prune reports its cuts', async () => {
    service = testService(root, { retention: { maxSnapshots: 50 }, events });
    service.updateSettings({ retention: { maxSnapshots: 4, maxTotalBytes: 500 * 1024 * 1024 }, maxFileBytes: 1024 });
    await takeCheckpoints(dir, 6);
    expect(await service.count(dir)).toBe(4);
    expect(cuts.map((cut) => cut.dropped)).toEqual([1, 1]);
    service.updateSettings({ retention: { maxSnapshots: 2, maxTotalBytes: 500 * 1024 * 1024 }, maxFileBytes: 1024 });
    expect(service.maxFileBytes).toBe(1024);
    expect((await service.prune()).droppedCheckpoints).toBe(2);
    expect(cuts.at(-1)).toMatchObject({
      dir,
      dropped: 2,
      kept: 2,
      reason: 'prune',
      message: expect.stringContaining('"vigil checkpoints prune" dropped 2 old checkpoints') as unknown,
    });
  });
});
