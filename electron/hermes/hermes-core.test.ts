import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../core/create-core';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { folderFingerprint, hermesSharedCheckpoint } from './test-support/hermes-fixtures';

/** The contract as the UI and agents see it: Hermes's checkpoints, with nothing configured but HERMES_HOME. */

const context = { transport: 'test', clientId: 'hermes-core' } as const;
let base: string;
let remove: () => Promise<void>;
let core: Core;
let project: string;
let hermesHome: string;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-hermes-core-'));
  project = path.join(base, 'project');
  hermesHome = path.join(base, 'hermes');
  mkdirSync(project);
  core = await createCore({ home: path.join(base, 'vigil'), logger: silentLogger, env: { HERMES_HOME: hermesHome } });
});
afterEach(async () => {
  await core.dispose();
  await remove();
});

describe('Hermes checkpoints over the contract', () => {
  it('lists them with their source, filters by source, names the directory, and restores one through the plan', async () => {
    writeFileSync(path.join(project, 'a.txt'), 'hermes\n');
    const id = hermesSharedCheckpoint(hermesHome, project, 'before write_file', { seconds: 1_700_000_000 }) ?? '';
    writeFileSync(path.join(project, 'a.txt'), 'changed\n');
    const before = folderFingerprint(hermesHome);

    const created = await core.router.dispatch(
      'checkpoints:create',
      { dir: project, reason: 'manual checkpoint' },
      context,
    );
    expect(created).toMatchObject({ ok: true, value: { kind: 'created', checkpoint: { source: 'vigil' } } });
    const listed = await core.router.dispatch('checkpoints:list', { dir: project }, context);
    expect(listed).toMatchObject({
      ok: true,
      value: { total: 2, entries: [{ source: 'vigil' }, { id, source: 'hermes', attribution: { agent: 'hermes' } }] },
    });
    const onlyHermes = await core.router.dispatch('checkpoints:list', { dir: project, source: 'hermes' }, context);
    expect(onlyHermes).toMatchObject({ ok: true, value: { total: 1, entries: [{ id }] } });
    const directories = await core.router.dispatch('checkpoints:directories', {}, context);
    expect(directories).toMatchObject({
      ok: true,
      value: { directories: [{ dir: project, count: 2, sources: ['vigil', 'hermes'] }] },
    });

    const plan = await core.router.dispatch(
      'checkpoints:plan-restore',
      { dir: project, checkpoint: id.slice(0, 8) },
      context,
    );
    if (!plan.ok) throw new Error(plan.error.message);
    const { fingerprint } = plan.value as { fingerprint: string };
    const restored = await core.router.dispatch(
      'checkpoints:restore',
      { dir: project, checkpoint: id, fingerprint },
      context,
    );
    expect(restored).toMatchObject({ ok: true, value: { isVerified: true, counts: { done: 1 } } });
    expect(readFileSync(path.join(project, 'a.txt'), 'utf8')).toBe('hermes\n');
    expect(folderFingerprint(hermesHome)).toBe(before);
  });

  it('announces a checkpoint Hermes takes while the core runs, as checkpoints:created with its source', async () => {
    writeFileSync(path.join(project, 'a.txt'), 'one\n');
    hermesSharedCheckpoint(hermesHome, project, 'before write_file', { seconds: 1_700_000_000 });
    expect(await core.router.dispatch('checkpoints:list', { dir: project }, context)).toMatchObject({
      ok: true,
      value: { total: 1 },
    });
    const announced = new Promise<unknown>((resolve) => core.events.on('checkpoints:created', resolve));
    writeFileSync(path.join(project, 'a.txt'), 'two\n');
    const id = hermesSharedCheckpoint(hermesHome, project, 'before patch', { seconds: 1_700_000_060 });
    expect(await announced).toMatchObject({
      id,
      dir: project,
      source: 'hermes',
      reason: 'before patch',
      stats: { files: 1, insertions: 1, deletions: 1 },
    });
  });
});
