import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../shared/contract';
import { createCore, type Core } from '../core/create-core';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';

let temp: { dir: string; remove: () => Promise<void> };
let core: Core;
const context = { transport: 'test', clientId: 'memory-handlers' } as const;

beforeEach(async () => {
  temp = await makeTempDir();
  core = await createCore({
    home: temp.dir,
    logger: silentLogger,
    env: { HERMES_HOME: path.join(temp.dir, 'no-hermes') },
  });
});
afterEach(async () => {
  await core.dispose();
  await temp.remove();
});

describe('the memory: calls of the contract', () => {
  it("list the directories, mutate, read, and emit memory:changed for Vigil's and external changes", async () => {
    const changes: Array<EventPayload<'memory:changed'>> = [];
    core.events.on('memory:changed', (change) => changes.push(change));
    const directories = await core.router.dispatch('memory:directories', {}, context);
    expect(directories).toMatchObject({
      ok: true,
      value: {
        directories: [
          {
            source: 'vigil',
            path: path.join(temp.dir, 'memories'),
            isWatched: true,
            limits: { memory: 2200, user: 1375 },
          },
        ],
      },
    });
    const dir = path.join(temp.dir, 'memories');
    const added = await core.router.dispatch(
      'memory:mutate',
      { dir, target: 'memory', operation: { action: 'add', content: 'likes tea' } },
      context,
    );
    expect(added).toMatchObject({
      ok: true,
      value: { outcome: 'changed', entries: ['likes tea'], checkpoint: { status: 'created' } },
    });
    await appendFile(path.join(dir, 'MEMORY.md'), 'free-form line\n');
    for (let waited = 0; !changes.some((change) => change.source === 'external'); waited += 10) {
      if (waited > 10_000) throw new Error('no external change event');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(changes.map((change) => change.source)).toEqual(['vigil', 'external']);
    const read = await core.router.dispatch('memory:read', { dir, target: 'memory' }, context);
    expect(read).toMatchObject({
      ok: true,
      value: {
        entries: ['likes tea\nfree-form line'],
        drift: { isDrifted: false },
        lastExternalChange: { source: 'external' },
      },
    });
  });

  it("report a checkpoint restore of the memory folder as Vigil's restore, not as an external edit", async () => {
    const dir = path.join(temp.dir, 'memories');
    // A version found at start-up: the core captures it, and the change below checkpoints on top of it.
    await writeFile(path.join(dir, 'MEMORY.md'), 'likes tea');
    await core.dispose();
    core = await createCore({
      home: temp.dir,
      logger: silentLogger,
      env: { HERMES_HOME: path.join(temp.dir, 'no-hermes') },
    });
    const changed = await core.router.dispatch(
      'memory:mutate',
      { dir, target: 'memory', operation: { action: 'add', content: 'uses vim' } },
      context,
    );
    if (!changed.ok) throw new Error(changed.error.message);
    // The checkpoint before the change holds the version found at start-up.
    const checkpoint = (changed.value as { checkpoint: { id: string } }).checkpoint.id;
    const restored = new Promise<EventPayload<'memory:changed'>>((resolve) => {
      core.events.on('memory:changed', (change) => {
        if (change.current.entries.join('|') === 'likes tea' && change.previous.entries.includes('uses vim'))
          resolve(change);
      });
    });
    const plan = await core.router.dispatch('checkpoints:plan-restore', { dir, checkpoint }, context);
    if (!plan.ok) throw new Error(plan.error.message);
    const result = await core.router.dispatch(
      'checkpoints:restore',
      { dir, checkpoint, fingerprint: (plan.value as { fingerprint: string }).fingerprint },
      context,
    );
    expect(result).toMatchObject({ ok: true, value: { counts: { done: 1, conflict: 0, failed: 0 } } });
    expect(await restored).toMatchObject({ source: 'vigil', isRestore: true });
  });

  it('names the field of a malformed request and carries refusals as error data', async () => {
    const dir = path.join(temp.dir, 'memories');
    const missing = await core.router.dispatch(
      'memory:mutate',
      { dir, target: 'memory', operation: { action: 'replace', oldText: 'x' } },
      context,
    );
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', details: { field: 'operation.content' } },
    });
    const empty = await core.router.dispatch(
      'memory:mutate',
      { dir, target: 'memory', operation: { action: 'add', content: '  ' } },
      context,
    );
    expect(empty).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', details: { field: 'operation.content' } },
    });
    const none = await core.router.dispatch(
      'memory:mutate',
      { dir, target: 'user', operation: { action: 'remove', oldText: 'x' } },
      context,
    );
    expect(none).toMatchObject({ ok: false, error: { code: 'no_match', details: { entries: [] } } });
    const elsewhere = await core.router.dispatch('memory:read', { dir: temp.dir, target: 'memory' }, context);
    expect(elsewhere).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('proposes an adoption of a drifted file and adopts the confirmed entries', async () => {
    const dir = path.join(temp.dir, 'memories');
    const file = path.join(dir, 'MEMORY.md');
    await appendFile(file, '# Vendors\nAcme\n\n# Orders\nship Fridays\n');
    const plan = await core.router.dispatch('memory:propose-adoption', { dir, target: 'memory' }, context);
    if (!plan.ok) throw new Error(plan.error.message);
    const { basis, recommended, proposals } = plan.value as {
      basis: string;
      recommended: string;
      proposals: Array<{ strategy: string; entries: string[] }>;
    };
    expect(recommended).toBe('headings');
    const entries = proposals.find((proposal) => proposal.strategy === 'headings')?.entries ?? [];
    const adopted = await core.router.dispatch('memory:adopt', { dir, target: 'memory', basis, entries }, context);
    expect(adopted).toMatchObject({
      ok: true,
      value: { outcome: 'changed', preserved: [{ reason: 'adopted-original' }] },
    });
    expect(await readFile(file, 'utf8')).toBe('# Vendors\nAcme\n§\n# Orders\nship Fridays\n');
  });
});
