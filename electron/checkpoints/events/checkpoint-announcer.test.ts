import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventHub } from '../../lib/event-hub';
import { makeTempDir } from '../../test-support/temp-dir';
import type { CheckpointService } from '../checkpoint-service';
import { testService, writeTree } from '../test-support/store-fixtures';
import { CheckpointAnnouncer } from './checkpoint-announcer';

describe('CheckpointAnnouncer: the one emitter of checkpoints:* events', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let service: CheckpointService | undefined;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-announcer-'));
    dir = path.join(base, 'work');
    await mkdir(dir);
    writeTree(dir, { 'a.txt': 'one\n' });
  });
  afterEach(async () => {
    await service?.dispose();
    service = undefined;
    await remove();
  });

  it('announces a checkpoint the engine took once, in the contract shape, though the store watcher finds it again', async () => {
    const events = new EventHub();
    const heard: string[] = [];
    const created: unknown[] = [];
    events.onAny((name) => heard.push(name));
    events.on('checkpoints:created', (entry) => created.push(entry));
    service = testService(path.join(base, 'home/checkpoints'), { events });
    const outcome = await service.checkpoint(dir, { reason: 'by hand' });
    if (outcome.kind !== 'created') throw new Error('expected a checkpoint');

    expect(service.announcer.created(outcome.checkpoint)).toBe(false);
    expect(heard).toEqual(['checkpoints:created']);
    expect(created).toEqual([expect.objectContaining({ id: outcome.checkpoint.id, dir, source: 'vigil' })]);
    expect(created[0]).not.toHaveProperty('skippedList');
  });

  it('without a hub (a one-shot core) announces nothing and remembers nothing', async () => {
    service = testService(path.join(base, 'home/checkpoints'));
    const outcome = await service.checkpoint(dir, { reason: 'by hand' });
    if (outcome.kind !== 'created') throw new Error('expected a checkpoint');
    const announcer = new CheckpointAnnouncer(undefined);
    expect(announcer.created(outcome.checkpoint)).toBe(false);
    expect(announcer.created(outcome.checkpoint)).toBe(false);
  });
});
