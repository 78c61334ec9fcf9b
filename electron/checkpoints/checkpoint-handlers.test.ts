import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../shared/contract';
import { EventHub } from '../lib/event-hub';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import type { CallHandlers } from '../transport/call-handlers';
import { createContractRouter, type ContractRouter } from '../transport/contract-router';
import { createCheckpointHandlers } from './checkpoint-handlers';
import type { CheckpointService } from './checkpoint-service';
import { testService } from './test-support/store-fixtures';

describe('the checkpoints: calls through the contract router', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let service: CheckpointService;
  let router: ContractRouter;
  const created: Array<EventPayload<'checkpoints:created'>> = [];
  const context = { transport: 'test', clientId: 'test' } as const;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-cp-calls-'));
    dir = path.join(base, 'work');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'a.txt'), 'a\n');
    const events = new EventHub();
    created.length = 0;
    events.on('checkpoints:created', (payload) => created.push(payload));
    service = testService(path.join(base, 'home/checkpoints'), { events });
    // Only the checkpoint handlers are wired: other channels are not called here.
    router = createContractRouter(createCheckpointHandlers(service) as unknown as CallHandlers, silentLogger);
  });
  afterEach(async () => {
    await service.dispose();
    await remove();
  });

  it('creates, lists, reports and prunes, every answer passing its schema, and announces each checkpoint', async () => {
    const first = await router.dispatch('checkpoints:create', { dir }, context);
    expect(first).toMatchObject({
      ok: true,
      value: { kind: 'created', checkpoint: { dir, reason: 'manual checkpoint', stats: { files: 1 } } },
    });
    const again = await router.dispatch('checkpoints:create', { dir, reason: 'before patch' }, context);
    expect(again).toMatchObject({ ok: true, value: { kind: 'unchanged' } });
    writeFileSync(path.join(dir, 'b.txt'), 'b\n');
    await router.dispatch('checkpoints:create', { dir, reason: 'before patch' }, context);
    expect(created.map((entry) => entry.reason)).toEqual(['manual checkpoint', 'before patch']);

    const list = await router.dispatch('checkpoints:list', { dir, limit: 1 }, context);
    expect(list).toMatchObject({ ok: true, value: { dir, total: 2, entries: [{ reason: 'before patch' }] } });
    const directories = await router.dispatch('checkpoints:directories', {}, context);
    expect(directories).toMatchObject({ ok: true, value: { directories: [{ dir, count: 2, exists: true }] } });
    const status = await router.dispatch('checkpoints:status', { dir }, context);
    expect(status).toMatchObject({ ok: true, value: { directories: [{ dir, skipped: [] }] } });
    const prune = await router.dispatch('checkpoints:prune', {}, context);
    expect(prune).toMatchObject({ ok: true, value: { droppedCheckpoints: 0 } });
  });

  it('answers bad requests and unknown directories with error codes that name the problem', async () => {
    expect(await router.dispatch('checkpoints:list', { dir, limit: 0 }, context)).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    expect(await router.dispatch('checkpoints:list', { dir: path.join(base, 'never') }, context)).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await router.dispatch('checkpoints:create', { dir: '/' }, context)).toMatchObject({
      ok: false,
      error: { code: 'forbidden_path' },
    });
    expect(await router.dispatch('checkpoints:create', { dir: 'relative' }, context)).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
  });
});
