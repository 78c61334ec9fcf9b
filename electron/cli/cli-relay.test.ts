import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVigil } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import {
  makeWorkspace,
  runBoth,
  startResidentCore,
  type ResidentCore,
  type Workspace,
} from './test-support/relay-fixture';

/**
 * Every command family prints the same, with the same exit code, whether it is relayed to the
 * resident core (workspace `relayed`, where the app's core runs) or works in-process (`--local`, on
 * an identical workspace): the same contract answers both.
 */
describe('the CLI relayed to the resident core and in-process', () => {
  let remove: () => Promise<void>;
  let relayed: Workspace;
  let local: Workspace;
  let resident: ResidentCore;

  /** Runs one command on both workspaces and checks that they print the same and exit with `code`. */
  async function same(args: (workspace: Workspace) => readonly string[], code: number): Promise<string> {
    const runs = await runBoth(args, relayed, local);
    expect(runs.relayed).toEqual(runs.local);
    expect(runs.relayed.code).toBe(code);
    return runs.relayed.stdout;
  }

  async function onBoth(change: (workspace: Workspace) => Promise<void>): Promise<void> {
    await Promise.all([change(relayed), change(local)]);
  }

  beforeEach(async () => {
    const temp = await makeTempDir('vigil-relay-');
    remove = temp.remove;
    relayed = await makeWorkspace(path.join(temp.dir, 'relayed'));
    local = await makeWorkspace(path.join(temp.dir, 'local'));
    resident = await startResidentCore(relayed.home, relayed.env);
  });
  afterEach(async () => {
    await resident.stop();
    await remove();
  });

  it('vigil checkpoint: taken, unchanged, by hand with a reason, refused', { timeout: 300_000 }, async () => {
    expect(await same((w) => ['checkpoint', w.project], 0)).toBe(
      'Checkpoint <id> of <base>/project: manual checkpoint (2 files, +3/-0).\n',
    );
    expect(await same((w) => ['checkpoint', w.project], 0)).toBe(
      'Nothing changed since checkpoint <id>; no checkpoint taken.\n',
    );
    await onBoth((w) => appendFile(path.join(w.project, 'src/a.txt'), 'three\n'));
    const json = JSON.parse(
      await same((w) => ['checkpoint', w.project, '--reason', 'before the refactor', '--json'], 0),
    ) as { checkpoint: { reason: string; attribution: unknown } };
    expect(json.checkpoint).toMatchObject({ reason: 'before the refactor', attribution: { origin: 'manual' } });
    await same(() => ['checkpoint', '/'], 1);
    expect(resident.calls.filter((call) => call === 'checkpoints:create')).toHaveLength(4);
  });

  it('vigil checkpoint that cuts the timeline says so once on stderr', { timeout: 300_000 }, async () => {
    await onBoth(async (w) => {
      await mkdir(w.home, { recursive: true });
      await writeFile(path.join(w.home, 'config.json'), '{"checkpoints": {"maxSnapshots": 2}}\n');
    });
    // The resident core applies config.json live; the cut below must come from the new limit.
    await expect
      .poll(async () => (await runVigil(['checkpoints', 'status'], { env: relayed.env })).stdout, { timeout: 10_000 })
      .toContain('Retention: 2 checkpoints per directory');
    for (const line of ['three', 'four']) {
      await same((w) => ['checkpoint', w.project], 0);
      await onBoth((w) => appendFile(path.join(w.project, 'src/a.txt'), `${line}\n`));
    }
    const runs = await runBoth((w) => ['checkpoint', w.project], relayed, local);
    expect(runs.relayed).toEqual(runs.local);
    expect(runs.relayed.stderr).toBe(
      'vigil: warn: Dropped 1 old checkpoint of <base>/project: Vigil keeps 2 per folder (checkpoints.maxSnapshots in config.json); 2 kept; the dropped ones stay restorable for 7 days ("vigil checkpoints list DIR --dropped").\n',
    );
  });

  it('vigil checkpoints list|diff|restore|status|pin|unpin|prune', { timeout: 300_000 }, async () => {
    await same((w) => ['checkpoint', w.project], 0);
    await onBoth((w) => writeFile(path.join(w.project, 'src/a.txt'), 'one\nTWO\n'));
    await same((w) => ['checkpoint', w.project, '--reason', 'second'], 0);
    await onBoth((w) => writeFile(path.join(w.project, 'src/a.txt'), 'one\nTWO\nthree\n'));
    expect(await same((w) => ['checkpoints', 'list', w.project], 0)).toContain(
      '  2. <id>  <time>  vigil  Checkpoint taken by hand  (2 files, +3/-0)  [the CLI]',
    );
    await same((w) => ['checkpoints', 'list', w.project, '--json'], 0);
    expect(await same((w) => ['checkpoints', 'diff', w.project, '2'], 0)).toContain('+TWO');
    await same((w) => ['checkpoints', 'restore', w.project, '2', '--dry-run', '--json'], 0);
    expect(await same((w) => ['checkpoints', 'restore', w.project, '2', 'src/a.txt'], 0)).toContain(
      '✅ Restored 1 file(s)',
    );
    expect(await same((w) => ['checkpoints', 'status', w.project], 0)).toContain('Dropped checkpoints: none recorded.');
    expect(await same((w) => ['checkpoints', 'pin', w.project, '3'], 0)).toContain(
      'Pinned checkpoint <id> of <base>/project',
    );
    expect(await same((w) => ['checkpoints', 'list', w.project], 0)).toContain(
      'Checkpoint taken by hand  (2 files, +3/-0)  [the CLI]  (pinned)',
    );
    await same((w) => ['checkpoints', 'unpin', w.project, '3', '--json'], 0);
    await same(() => ['checkpoints', 'prune', '--json'], 0);
    await same((w) => ['checkpoints', 'diff', w.project, '99'], 1);
    await same((w) => ['checkpoints', 'list', w.project, '--limit', '0'], 2);
    expect(resident.calls).toEqual(
      expect.arrayContaining([
        'checkpoints:list',
        'checkpoints:diff',
        'checkpoints:file-diff',
        'checkpoints:plan-restore',
        'checkpoints:restore',
        'checkpoints:status',
        'checkpoints:pin',
        'checkpoints:prune',
      ]),
    );
  });

  it('vigil memory list|add|replace|remove|adopt', { timeout: 300_000 }, async () => {
    expect(await same(() => ['memory', 'add', 'likes tea'], 0)).toContain('Entry added. MEMORY.md is at');
    expect(await same(() => ['memory', 'list'], 0)).toContain('  1. likes tea');
    await same(() => ['memory', 'replace', 'tea', 'likes green tea'], 0);
    await same(() => ['memory', 'remove', 'coffee'], 1);
    await same(() => ['memory', 'list', '--json'], 0);
    await same(() => ['memory', 'add', 'x'.repeat(3000)], 1);
    expect(await same(() => ['memory', 'adopt'], 0)).toContain('is already a list of entries');
    expect(resident.calls).toEqual(
      expect.arrayContaining(['memory:directories', 'memory:read', 'memory:mutate', 'memory:propose-adoption']),
    );
  });

  it('vigil tool and vigil sessions list|show', { timeout: 300_000 }, async () => {
    const write = (w: Workspace) => [
      'tool',
      'write_file',
      '--args',
      '{"path": "notes.md", "content": "# Notes\\n"}',
      '--cwd',
      w.project,
    ];
    expect(JSON.parse(await same(write, 0))).toMatchObject({ path: '<base>/project/notes.md' });
    await same((w) => ['tool', 'write_file', '--args', '{"path": "empty.md"}', '--cwd', w.project], 1);
    await same((w) => ['tool', 'read_file', '--args', '{"path": "../outside.txt"}', '--cwd', w.project], 1);
    await same(
      (w) => [
        'tool',
        'memory',
        '--args',
        '{"action": "add", "target": "memory", "content": "via the tool"}',
        '--cwd',
        w.project,
      ],
      0,
    );
    expect(await same(() => ['sessions', 'list'], 0)).toContain('vigil tool');
    const listed = await same(() => ['sessions', 'list', '--json'], 0);
    expect((JSON.parse(listed) as { sessions: unknown[] }).sessions).toHaveLength(4);
    // The newest session of each workspace (the memory call), by its real id.
    const newest = new Map<string, string>();
    for (const w of [relayed, local]) {
      const run = await runVigil(['sessions', 'list', '--json', '--local'], { env: w.env });
      newest.set(w.base, (JSON.parse(run.stdout) as { sessions: Array<{ id: string }> }).sessions[0]?.id ?? '');
    }
    expect(await same((w) => ['sessions', 'show', newest.get(w.base) ?? ''], 0)).toContain('✓ memory add memory');
    await same(() => ['sessions', 'show', 'ses_nosuchsession'], 1);
    expect(resident.calls).toEqual(expect.arrayContaining(['tools:run', 'sessions:list']));
    expect(resident.core.sessions.list().map((session) => session.agent)).toEqual([
      'vigil tool',
      'vigil tool',
      'vigil tool',
      'vigil tool',
    ]);
  });
});
