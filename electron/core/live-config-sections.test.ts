import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallName, CallRequest, CallResponse } from '../../shared/contract';
import type { SessionStatus, SessionSummary } from '../../shared/contract/sessions-contract';
import { connectMcpClient, startServeFixture } from '../gateway/test-support/gateway-fixture';
import { silentLogger } from '../logging/logger';
import { runVigil } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { createCore, type Core } from './create-core';
import { nextEvent } from '../test-support/next-event';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function call<C extends CallName>(core: Core, channel: C, payload: CallRequest<C>): Promise<CallResponse<C>> {
  const result = await core.router.dispatch(channel, payload, { transport: 'test', clientId: 'live-config' });
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as CallResponse<C>;
}

/** Writes config.json and waits for the core to have applied it (its `config:changed`, an app signal). */
async function configure(
  core: Core,
  config: unknown,
  isApplied: (state: CallResponse<'config:read'>) => boolean = (state) => state.problem === null,
): Promise<CallResponse<'config:read'>> {
  const applied = nextEvent(core.events, 'config:changed', isApplied);
  // Saved whole, as an editor saves (a temp file renamed over it): a loaded machine never shows the core a half-written file.
  const temporary = `${core.paths.config}.saving`;
  await writeFile(temporary, typeof config === 'string' ? config : JSON.stringify(config));
  await rename(temporary, core.paths.config);
  return applied;
}

/** Resolves once a session reaches `status` (the core's own change events, never a sleep). */
function untilStatus(core: Core, id: string, status: SessionStatus): Promise<SessionSummary> {
  return new Promise((resolve) => {
    const check = (session: SessionSummary): void => {
      if (session.id !== id || session.status !== status) return;
      stop();
      resolve(session);
    };
    const stop = core.sessions.onChanged(check);
    for (const session of core.sessions.list()) check(session);
  });
}

describe('every config.json section is live in a resident core', () => {
  it(
    'applies sessions.idleMinutes and gateway.turnIdleGapMs written after start to the next MCP session: its turn ends after the new gap, and it is disconnected after the new idle time',
    { timeout: 120_000 },
    async () => {
      // Started on the defaults: 30 s turn gap, 10 min idle.
      const fixture = await startServeFixture();
      cleanups.push(() => fixture.close());
      const { core } = fixture.running;
      const state = await configure(core, { sessions: { idleMinutes: 0.01 }, gateway: { turnIdleGapMs: 100 } });
      expect(state.appliedAtRestart).toEqual([]);

      const { client } = await connectMcpClient(fixture, { name: 'short-lived', query: { cwd: fixture.workspace } });
      const written = (await client.callTool({
        name: 'write_file',
        arguments: { path: 'a.txt', content: 'a' },
      })) as CallToolResult;
      expect(written.isError).not.toBe(true);
      const session = core.sessions.list().find((summary) => summary.agent === 'short-lived');
      if (session === undefined) throw new Error('no session for the client');
      // The 100 ms gap, not the 30 s one the core started with: the burst's turn ends and the session is idle.
      await untilStatus(core, session.id, 'idle');
      // Exits without an HTTP DELETE: disconnected after 0.6 s of quiet, not 10 min.
      await client.close();
      const gone = await untilStatus(core, session.id, 'disconnected');
      expect(gone.status).toBe('disconnected');
    },
  );

  it(
    'manages a memory directory added to config.json at once (listed, its limit applied, watched), keeps it through an invalid edit that names the field, and lets it go when removed',
    { timeout: 120_000 },
    async () => {
      const temp = await makeTempDir('vigil-live-memory-');
      cleanups.push(temp.remove);
      const home = path.join(temp.dir, 'home');
      const notes = path.join(temp.dir, 'notes');
      await mkdir(notes, { recursive: true });
      const env = {
        VIGIL_HOME: home,
        HOME: path.join(temp.dir, 'user'),
        HERMES_HOME: path.join(temp.dir, 'no-hermes'),
      };
      const core = await createCore({ home, logger: silentLogger, env });
      cleanups.push(() => core.dispose());
      const managed = async (): Promise<CallResponse<'memory:directories'>['directories']> =>
        (await call(core, 'memory:directories', {})).directories.filter((directory) => directory.path === notes);
      expect(await managed()).toEqual([]);

      await configure(core, { memory: { directories: [{ path: notes, label: 'Notes', limits: { memory: 300 } }] } });
      expect(await managed()).toMatchObject([
        { label: 'Notes', limits: { memory: 300 }, exists: true, isWatched: true },
      ]);
      expect(
        (
          await call(core, 'memory:mutate', {
            dir: notes,
            target: 'memory',
            operation: { action: 'add', content: 'short entry' },
          })
        ).outcome,
      ).toBe('changed');
      const tooLong = await core.router.dispatch(
        'memory:mutate',
        { dir: notes, target: 'memory', operation: { action: 'add', content: 'x'.repeat(400) } },
        { transport: 'test', clientId: 'live-config' },
      );
      expect(JSON.stringify(tooLong)).toMatch(/300/);
      // Watched: an edit by another program is reported.
      // (writeFile truncates first: a loaded machine may show the watcher the empty version too, which is reported as well.)
      const external = nextEvent(
        core.events,
        'memory:changed',
        (change) => change.dir === notes && change.source === 'external' && change.current.entries.length === 2,
      );
      await writeFile(path.join(notes, 'MEMORY.md'), 'short entry\n§\nadded by an editor');
      expect((await external).current.entries).toEqual(['short entry', 'added by an editor']);

      // An invalid edit: the field is named (in config:read and the status), and the directory stays managed with its limit.
      const broken = await configure(
        core,
        { memory: { directories: [{ path: 'relative/notes' }] } },
        (state) => state.problem?.field.startsWith('memory.') === true,
      );
      expect(broken.problem).toMatchObject({ field: 'memory.directories.0.path' });
      expect((await call(core, 'checkpoints:status', {})).configProblem).toMatchObject({
        field: 'memory.directories.0.path',
      });
      expect(await managed()).toMatchObject([{ label: 'Notes', limits: { memory: 300 } }]);

      await configure(core, { memory: { directories: [] } });
      expect(await managed()).toEqual([]);
      const refused = await core.router.dispatch(
        'memory:read',
        { dir: notes, target: 'memory' },
        { transport: 'test', clientId: 'live-config' },
      );
      expect(refused).toMatchObject({ ok: false, error: { code: 'not_found' } });
    },
  );

  it(
    'applies a shorter sessions.maxDays at once: the log of a session idle past it is deleted when config.json changes, not hours later',
    { timeout: 120_000 },
    async () => {
      const temp = await makeTempDir('vigil-live-retention-');
      cleanups.push(temp.remove);
      const home = path.join(temp.dir, 'home');
      const workspace = path.join(temp.dir, 'ws');
      await mkdir(path.join(home, 'sessions'), { recursive: true });
      await mkdir(workspace);
      await writeFile(path.join(home, 'config.json'), JSON.stringify({ sessions: { maxDays: 365 } }));
      // A session last active 40 days ago: kept by a year's retention.
      const at = new Date(Date.now() - 40 * 86_400_000).toISOString();
      const log = path.join(home, 'sessions', 'ses_quiet.jsonl');
      const records = [
        { type: 'opened', v: 1, at, id: 'ses_quiet', agent: 'old-agent', roots: [workspace], cwd: workspace },
        { type: 'closed', at },
      ];
      await writeFile(log, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
      const core = await createCore({
        home,
        logger: silentLogger,
        env: { VIGIL_HOME: home, HOME: path.join(temp.dir, 'user'), HERMES_HOME: path.join(temp.dir, 'no-hermes') },
      });
      cleanups.push(() => core.dispose());
      expect(core.sessions.list().map((session) => session.id)).toEqual(['ses_quiet']);

      await configure(core, { sessions: { maxDays: 30 } });
      expect(existsSync(log)).toBe(false);
      expect(core.sessions.list()).toEqual([]);
    },
  );

  it(
    'fails closed on an invalid policy edit, and says so: the field is named, and an agent write that a rule allowed now waits for a human',
    { timeout: 120_000 },
    async () => {
      const fixture = await startServeFixture({ policy: { rules: [{ effect: 'allow', tool: 'write_file' }] } });
      cleanups.push(() => fixture.close());
      const { core } = fixture.running;
      const broken = await configure(
        core,
        { policy: { rules: [{ effect: 'maybe', tool: 'write_file' }] } },
        (state) => state.problem?.field.startsWith('policy.') === true,
      );
      expect(broken.problem).toMatchObject({
        field: 'policy.rules.0.effect',
        message: expect.stringContaining('every agent tool call asks a human') as unknown,
      });
      expect(broken.problem?.message).not.toContain('last valid');
      const { client } = await connectMcpClient(fixture, { name: 'agent-a', roots: [fixture.workspace] });
      const requested = nextEvent(core.events, 'approvals:requested', () => true);
      const write = client.callTool({ name: 'write_file', arguments: { path: 'a.txt', content: 'a\n' } });
      const { approval } = await requested;
      expect(approval.reason).toContain('config.json cannot be used');
      // Decided as a person in Vigil's window decides (the only deciders approvals accept).
      const decided = await core.router.dispatch(
        'approvals:decide',
        { id: approval.id, decision: 'deny' },
        { transport: 'ipc', peer: 'window', clientId: 'window' },
      );
      expect(decided.ok).toBe(true);
      expect(((await write) as CallToolResult).isError).toBe(true);
      expect(existsSync(path.join(fixture.workspace, 'a.txt'))).toBe(false);
    },
  );

  it(
    'reports an invalid sessions edit by its field while the last valid one stays, in the core and in vigil checkpoints status, relayed and in-process',
    { timeout: 120_000 },
    async () => {
      const fixture = await startServeFixture({ sessions: { idleMinutes: 5 } });
      cleanups.push(() => fixture.close());
      const { core } = fixture.running;
      const broken = await configure(
        core,
        { sessions: { idleMinutes: -1 } },
        (state) => state.problem?.field.startsWith('sessions.') === true,
      );
      expect(broken.problem).toMatchObject({ field: 'sessions.idleMinutes' });
      const env = {
        VIGIL_HOME: core.paths.home,
        HOME: path.dirname(core.paths.home),
        HERMES_HOME: path.join(core.paths.home, 'no-hermes'),
      };
      for (const extra of [[], ['--local']]) {
        const status = await runVigil(['checkpoints', 'status', ...extra], { env });
        expect(status.code).toBe(0);
        expect(status.stdout).toContain('config.json is invalid at "sessions.idleMinutes"');
        // What happens meanwhile, as it is: the resident core keeps the last valid settings; an in-process command has none to keep.
        expect(status.stdout).toContain(
          extra.length === 0
            ? 'The last valid "sessions" settings stay in force'
            : 'commands that use the "sessions" settings stop with this error',
        );
      }
    },
  );
});
