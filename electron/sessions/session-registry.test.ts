import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../shared/contract/sessions-contract';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { SessionRegistry } from './session-registry';

let base: string;
let remove: () => Promise<void>;
let workspace: string;
let emitted: { name: string; payload: unknown }[];

function registry(): SessionRegistry {
  return new SessionRegistry({
    directory: path.join(base, 'sessions'),
    logger: silentLogger,
    events: { emit: (name, payload) => emitted.push({ name, payload }) },
  });
}

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-sessions-'));
  workspace = path.join(base, 'ws');
  mkdirSync(path.join(workspace, 'sub'), { recursive: true });
  emitted = [];
});
afterEach(async () => {
  await remove();
});

describe('SessionRegistry', () => {
  it('opens a session with resolved roots and cwd, and refuses a bad place naming the field', async () => {
    const sessions = registry();
    await sessions.load();
    symlinkSync(workspace, path.join(base, 'link'));
    const opened = await sessions.open({
      agent: 'claude-code',
      client: 'cc 1.0',
      roots: [path.join(base, 'link')],
      cwd: 'sub',
    });
    expect(opened).toMatchObject({
      agent: 'claude-code',
      client: 'cc 1.0',
      roots: [workspace],
      cwd: path.join(workspace, 'sub'),
      status: 'idle',
      currentTurn: 0,
      isTurnOpen: false,
      toolCallCount: 0,
      warnings: [],
    });
    expect(opened.id).toMatch(/^ses_[a-z0-9]+$/u);
    await expect(sessions.open({ agent: 'a', roots: [path.join(base, 'missing')] })).rejects.toMatchObject({
      code: 'not_found',
      details: { field: 'root 1' },
    });
    await expect(sessions.open({ agent: 'a', roots: [path.join(workspace, 'sub')], cwd: base })).rejects.toMatchObject({
      code: 'outside_workspace',
      details: { field: 'cwd' },
    });
    await expect(sessions.open({ agent: '', roots: [] })).rejects.toMatchObject({
      code: 'invalid_request',
      details: { field: 'agent' },
    });
    expect(await sessions.open({ agent: 'mcp', roots: [] })).toMatchObject({ roots: [] });
    expect(await sessions.open({ agent: 'mcp', roots: [], cwd: workspace })).toMatchObject({
      roots: [workspace],
      cwd: workspace,
    });
    await sessions.dispose();
  });

  it('numbers turns, records messages, and never reuses a turn number', async () => {
    const sessions = registry();
    await sessions.load();
    const { id } = await sessions.open({ agent: 'a', roots: [workspace] });
    await sessions.appendMessage(id, { role: 'user', text: 'opens turn 1' });
    expect(sessions.get(id)).toMatchObject({ currentTurn: 1, isTurnOpen: true });
    expect(await sessions.beginTurn(id, { userMessage: 'second' })).toEqual({ turn: 2 });
    await sessions.appendMessage(id, { role: 'assistant', text: 'done' });
    await sessions.endTurn(id);
    await sessions.endTurn(id);
    const history = await sessions.history(id);
    expect(
      history.turns.map((turn) => [
        turn.turn,
        turn.endedAt !== undefined,
        turn.entries.map((entry) => (entry.kind === 'message' ? `${entry.role}:${entry.text}` : entry.kind)),
      ]),
    ).toEqual([
      [1, true, ['user:opens turn 1']],
      [2, true, ['user:second', 'assistant:done']],
    ]);
    await expect(sessions.appendMessage(id, { role: 'robot' as 'user', text: 'x' })).rejects.toMatchObject({
      code: 'invalid_request',
      details: { field: 'role' },
    });
    await sessions.dispose();
  });

  it('emits sessions:changed for every change: working for the whole turn (not only while a call runs), then idle, then "ended" (refusing new turns)', async () => {
    const sessions = registry();
    await sessions.load();
    const seen: SessionSummary[] = [];
    const stop = sessions.onChanged((session) => seen.push(session));
    const { id } = await sessions.open({ agent: 'a', roots: [workspace] });
    await sessions.beginTurn(id);
    expect(sessions.get(id).status).toBe('working');
    const stopRunning = sessions.startRunning(id);
    expect(sessions.get(id).status).toBe('working');
    stopRunning();
    // Between calls, inside the turn, the agent is thinking: still working, never "idle".
    expect(sessions.get(id).status).toBe('working');
    await sessions.endTurn(id);
    expect(sessions.get(id).status).toBe('idle');
    const closed = await sessions.close(id);
    stop();
    expect(closed.status).toBe('ended');
    expect(seen.map((session) => session.status)).toEqual(['idle', 'working', 'working', 'working', 'idle', 'ended']);
    expect(emitted.filter((event) => event.name === 'sessions:changed')).toHaveLength(6);
    await expect(sessions.beginTurn(id)).rejects.toMatchObject({ code: 'conflict' });
    await expect(sessions.beginTurn('ses_nope')).rejects.toMatchObject({ code: 'not_found' });
    await expect(sessions.beginTurn('../../etc/passwd')).rejects.toMatchObject({ code: 'invalid_request' });
    await sessions.dispose();
  });

  it('reloads every session from its log; unclosed ones come back disconnected (nobody is connected after a restart) and can be resumed', async () => {
    const first = registry();
    await first.load();
    const open = await first.open({ agent: 'keeps', roots: [workspace] });
    await first.beginTurn(open.id, { userMessage: 'hello' });
    const done = await first.open({ agent: 'done', roots: [workspace] });
    await first.close(done.id);
    await first.dispose();

    const second = registry();
    await second.load();
    expect(
      second
        .list()
        .map((session) => [session.agent, session.status])
        .sort(),
    ).toEqual([
      ['done', 'ended'],
      ['keeps', 'disconnected'],
    ]);
    // Shutting down ended its open turn and said why in the log.
    expect(second.get(open.id)).toMatchObject({ currentTurn: 1, isTurnOpen: false });
    expect(readFileSync(path.join(base, 'sessions', `${open.id}.jsonl`), 'utf8')).toContain(
      '"type":"disconnected","at":',
    );
    const resumed = await second.open({
      agent: 'ignored',
      roots: [path.join(workspace, 'sub')],
      sessionId: done.id,
      client: 'again',
    });
    expect(resumed).toMatchObject({
      id: done.id,
      agent: 'done',
      status: 'idle',
      client: 'again',
      roots: [path.join(workspace, 'sub')],
    });
    expect(await second.beginTurn(done.id)).toEqual({ turn: 1 });
    await second.dispose();
  });
});
