import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallName, CallRequest, CallResponse, EventPayload } from '../../shared/contract';
import { readServeCredential } from '../cli/relay/serve-credential';
import { relayCall } from '../cli/relay/relay-client';
import { silentLogger } from '../logging/logger';
import { startDesktopGateway, type DesktopGateway } from '../shell/desktop-gateway';
import { runVigil } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { createCore, type Core } from './create-core';
import { nextEvent } from '../test-support/next-event';

const context = { transport: 'test', clientId: 'live-core' } as const;

let temp: { dir: string; remove: () => Promise<void> };
let home: string;
let project: string;
let env: NodeJS.ProcessEnv;
let core: Core;
let gateway: DesktopGateway | undefined;

async function call<C extends CallName>(channel: C, payload: CallRequest<C>): Promise<CallResponse<C>> {
  const result = await core.router.dispatch(channel, payload, context);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as CallResponse<C>;
}

beforeEach(async () => {
  temp = await makeTempDir('vigil-live-core-');
  home = path.join(temp.dir, 'home');
  project = path.join(temp.dir, 'project');
  await mkdir(project, { recursive: true });
  await writeFile(path.join(project, 'notes.txt'), 'start\n');
  env = { VIGIL_HOME: home, HOME: path.join(temp.dir, 'user'), HERMES_HOME: path.join(temp.dir, 'no-hermes') };
  core = await createCore({ home, logger: silentLogger, env });
});
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
  await core.dispose();
  await temp.remove();
});

describe('a resident core keeps config.json live', () => {
  it('keeps 55 checkpoints after maxSnapshots is raised to 400 while it runs, through CLI relays and an agent write (the silent cut)', async () => {
    gateway = await startDesktopGateway({ core, logger: silentLogger });
    const applied = nextEvent(core.events, 'config:changed', (state) => state.checkpoints.maxSnapshots === 400);
    await writeFile(core.paths.config, JSON.stringify({ checkpoints: { maxSnapshots: 400 } }));
    expect((await applied).problem).toBeNull();
    const lookup = await readServeCredential(core.paths.serveInfo);
    if (lookup.kind !== 'found') throw new Error(`no core in serve.json: ${lookup.kind}`);
    const cuts: Array<EventPayload<'checkpoints:cut'>> = [];
    core.events.on('checkpoints:cut', (cut) => cuts.push(cut));
    for (let index = 1; index <= 55; index += 1) {
      await writeFile(path.join(project, 'notes.txt'), `version ${index}\n`);
      const outcome = await relayCall(lookup.credential, 'checkpoints:create', {
        dir: project,
        reason: `by hand ${index}`,
      });
      expect(outcome).toMatchObject({ kind: 'answered', result: { ok: true, value: { kind: 'created' } } });
    }
    // One agent writes through the server: its checkpoint (before write_file) is the 56th.
    await writeFile(path.join(project, 'notes.txt'), 'edited by hand\n');
    const session = await core.sessions.open({ agent: 'claude', roots: [project] });
    const [outcome] = await core.executor.execute(
      session.id,
      [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'by the agent\n' } }],
      { concurrent: false },
    );
    expect(outcome?.checkpoints).toMatchObject([{ kind: 'created' }]);
    const listed = await call('checkpoints:list', { dir: project, limit: 500 });
    expect(listed.total).toBe(56);
    expect(cuts).toEqual([]);
    expect((await call('checkpoints:status', {})).retention.maxSnapshots).toBe(400);
  });

  it('keeps the last valid settings when config.json is edited into something invalid, and names the field', async () => {
    const raised = nextEvent(core.events, 'config:changed', (state) => state.checkpoints.maxSnapshots === 400);
    await writeFile(core.paths.config, JSON.stringify({ checkpoints: { maxSnapshots: 400 } }));
    await raised;
    const broken = nextEvent(core.events, 'config:changed', (state) => state.problem !== null);
    await writeFile(core.paths.config, JSON.stringify({ checkpoints: { maxSnapshots: 'many' } }));
    expect((await broken).problem).toMatchObject({
      field: 'checkpoints.maxSnapshots',
      message: expect.stringContaining('last valid "checkpoints" settings stay in force') as unknown,
    });
    const status = await call('checkpoints:status', {});
    expect(status.retention.maxSnapshots).toBe(400);
    expect(status.configProblem).toMatchObject({ field: 'checkpoints.maxSnapshots' });
    expect(await call('config:read', {})).toMatchObject({
      checkpoints: { maxSnapshots: 400 },
      problem: { field: 'checkpoints.maxSnapshots' },
    });

    const notJson = nextEvent(core.events, 'config:changed', (state) => state.problem?.field === '(root)');
    await writeFile(core.paths.config, '{ "checkpoints": ');
    expect((await notJson).checkpoints.maxSnapshots).toBe(400);
    const fixed = nextEvent(core.events, 'config:changed', (state) => state.problem === null);
    await writeFile(core.paths.config, JSON.stringify({ checkpoints: { maxSnapshots: 60 } }));
    expect((await fixed).checkpoints.maxSnapshots).toBe(60);
    expect((await call('checkpoints:status', {})).retention.maxSnapshots).toBe(60);
  });
});

describe('a resident core sees what other processes did', () => {
  it('announces a checkpoint and a cut made by a CLI working in-process, for a folder it never saw, with the count now', async () => {
    await writeFile(core.paths.config, JSON.stringify({ checkpoints: { maxSnapshots: 2 } }));
    const first = nextEvent(core.events, 'checkpoints:created', (entry) => entry.dir === project);
    expect((await runVigil(['checkpoint', project, '--local'], { env })).code).toBe(0);
    expect(await first).toMatchObject({ dir: project, reason: 'manual checkpoint', attribution: { origin: 'manual' } });
    for (const version of ['two', 'three']) {
      await writeFile(path.join(project, 'notes.txt'), `${version}\n`);
      const created = nextEvent(
        core.events,
        'checkpoints:created',
        (entry) => entry.dir === project && entry.reason === version,
      );
      // Every count the UI is told after this checkpoint (and its cut) ends at the count of the store: 2.
      const counted = nextEvent(
        core.events,
        'checkpoints:timeline-changed',
        (change) => change.dir === project && change.total === 2,
      );
      const cut =
        version === 'three' ? nextEvent(core.events, 'checkpoints:cut', (record) => record.dir === project) : undefined;
      const run = await runVigil(['checkpoint', project, '--reason', version, '--local'], { env });
      expect(run.code).toBe(0);
      await created;
      if (cut !== undefined) {
        expect(run.stderr).toContain(`Dropped 1 old checkpoint of ${project}: Vigil keeps 2 per folder`);
        expect(await cut).toMatchObject({ dir: project, dropped: 1, kept: 2, reason: 'retention' });
      }
      await counted;
    }
    expect((await call('checkpoints:list', { dir: project })).total).toBe(2);
  });
});

describe('a resident core sees sessions other processes log', () => {
  it('shows a session a CLI ran in-process, ended, as it shows its own', async () => {
    const seen = nextEvent(
      core.events,
      'sessions:changed',
      ({ session }) => session.agent === 'vigil tool' && session.status === 'ended',
    );
    const run = await runVigil(
      ['tool', 'write_file', '--args', '{"path": "late.md", "content": "late\\n"}', '--cwd', project, '--local'],
      { env },
    );
    expect(run.code).toBe(0);
    const { session } = await seen;
    expect(session).toMatchObject({
      toolCallCount: 1,
      roots: [project],
      lastToolCall: { name: 'write_file', decision: 'allowed', isOk: true },
    });
    expect(core.sessions.list().map((listed) => listed.id)).toContain(session.id);
  });
});

describe('the contract of a resident core', () => {
  it('runs tools:run for the command line only', async () => {
    const request = { name: 'read_file', arguments: { path: 'notes.txt' }, cwd: project, roots: [project] };
    for (const transport of ['websocket', 'ipc'] as const) {
      const refused = await core.router.dispatch('tools:run', request, { transport, clientId: 'page' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'denied' } });
    }
    expect(await core.router.dispatch('tools:run', request, { transport: 'http', clientId: 'cli' })).toMatchObject({
      ok: true,
      value: { decision: 'allowed', result: { ok: true } },
    });
  });

  it('tells the UI when files change in a directory it compares with a checkpoint', async () => {
    const taken = await call('checkpoints:create', { dir: project });
    if (taken.kind !== 'created') throw new Error('no checkpoint');
    await call('checkpoints:diff', { dir: project, checkpoint: taken.checkpoint.id, against: { kind: 'live' } });
    const changed = nextEvent(core.events, 'checkpoints:live-changed', (change) => change.dir === project);
    await writeFile(path.join(project, 'notes.txt'), 'changed behind the comparison\n');
    expect(await changed).toMatchObject({ dir: project });
    const diff = await call('checkpoints:diff', {
      dir: project,
      checkpoint: taken.checkpoint.id,
      against: { kind: 'live' },
    });
    expect(diff.totalFiles).toBe(1);
  });
});
