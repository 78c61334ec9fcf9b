import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VigilAgentClient } from '../../agent-client/vigil-agent-client';
import type { AgentNotificationParams } from '../../shared/agent-protocol/agent-notifications';
import { AppError } from '../../shared/errors';
import { decideAsPerson, startServeFixture, type ServeFixture } from './test-support/gateway-fixture';

let fixture: ServeFixture;
const clients: VigilAgentClient[] = [];

beforeEach(async () => {
  fixture = await startServeFixture({
    policy: { rules: [{ effect: 'ask', tool: 'terminal', command: 'rm -rf' }], approvalTimeoutMs: 60_000 },
  });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await fixture.close();
});

async function connect(): Promise<VigilAgentClient> {
  const client = await VigilAgentClient.connect({ url: fixture.baseUrl, token: fixture.agentToken, reconnect: false });
  clients.push(client);
  return client;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

describe('JSON-RPC agent protocol (/agent) with the TypeScript client', () => {
  it('opens a session, runs a turn with a concurrent batch, and records it all in the history', async () => {
    const client = await connect();
    const session = await client.openSession({ agent: 'rpc-agent', roots: [fixture.workspace], client: 'test 1.0' });
    expect(session.history.turns).toEqual([]);
    const turn = await session.beginTurn('write three files');
    expect(turn).toBe(1);
    await session.appendMessage('assistant', 'On it.');
    const outcomes = await session.callTools(
      ['a', 'b', 'c'].map((name) => ({
        callId: `call-${name}`,
        name: 'write_file',
        arguments: { path: `${name}.txt`, content: name.repeat(3) },
      })),
      { concurrent: true },
    );
    expect(outcomes.map((outcome) => outcome.callId)).toEqual(['call-a', 'call-b', 'call-c']);
    expect(outcomes.every((outcome) => outcome.result.ok && outcome.decision === 'allowed' && outcome.turn === 1)).toBe(
      true,
    );
    for (const name of ['a', 'b', 'c'])
      expect(await readFile(path.join(fixture.workspace, `${name}.txt`), 'utf8')).toBe(name.repeat(3));
    await session.endTurn();

    const history = await session.fetchHistory();
    expect(history.turns).toHaveLength(1);
    const entries = history.turns[0]?.entries ?? [];
    expect(entries.flatMap((entry) => (entry.kind === 'message' ? [entry.text] : []))).toEqual([
      'write three files',
      'On it.',
    ]);
    expect(entries.filter((entry) => entry.kind === 'tool-call')).toHaveLength(3);
    const closed = await session.close();
    expect(closed.status).toBe('ended');
  });

  it('returns a dropped content argument (seed 004) as an outcome naming the field, and writes nothing', async () => {
    const client = await connect();
    const session = await client.openSession({ agent: 'dropper', roots: [fixture.workspace] });
    const [outcome] = await session.callTools([{ name: 'write_file', arguments: { path: 'oops.md' } }]);
    expect(outcome?.decision).toBe('invalid');
    expect(outcome?.result.ok).toBe(false);
    if (outcome?.result.ok === false) {
      expect(outcome.result.error.code).toBe('invalid_request');
      expect(outcome.result.error.message).toMatch(/"content" is missing/);
      expect(outcome.result.error.details?.['field']).toBe('content');
    }
    expect(outcome?.checkpoints).toEqual([]);
    expect(await exists(path.join(fixture.workspace, 'oops.md'))).toBe(false);
  });

  it('refuses a session rooted at / naming the fix, and opens none (issue 30, C2)', async () => {
    const client = await connect();
    const error = await client.openSession({ agent: 'rooted', roots: ['/'] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('forbidden_path');
    expect((error as AppError).message).toMatch(/\/ as a workspace root.*Start in a project folder/su);
    const logs = await readdir(path.join(fixture.home, 'sessions')).catch(() => []);
    for (const log of logs)
      expect(await readFile(path.join(fixture.home, 'sessions', log), 'utf8')).not.toContain('rooted');
  });

  it('rejects params that fail the schema with invalid_request naming the field', async () => {
    const client = await connect();
    const session = await client.openSession({ agent: 'schema', roots: [fixture.workspace] });
    const error = await client
      .request('tools.call', { sessionId: session.id, calls: [{ name: 'write_file' }] } as never)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('invalid_request');
    expect((error as AppError).details?.['field']).toBe('calls.0.arguments');
    const other = await client.request('turn.end', { sessionId: 'not-mine' }).catch((caught: unknown) => caught);
    expect((other as AppError).message).toContain('session.open');
  });

  it('notifies the agent of a rewind with its new history, and serves the canonical history on re-open', async () => {
    const client = await connect();
    const session = await client.openSession({ agent: 'rewound', roots: [fixture.workspace] });
    await session.beginTurn('first');
    await session.callTool('write_file', { path: 'kept.txt', content: 'kept' });
    await session.beginTurn('second');
    await session.callTool('write_file', { path: 'undone.txt', content: 'undone' });
    await session.endTurn();
    const notified = new Promise<AgentNotificationParams<'session.rewound'>>((resolve) =>
      session.on('session.rewound', resolve),
    );
    await fixture.running.core.sessions.rewind(session.id, 2, 'both');
    const notification = await notified;
    expect(notification.rewind.rewoundTurns).toEqual([2]);
    expect(notification.history.turns.map((turn) => turn.isRewound)).toEqual([false, true]);
    expect(session.history.turns.map((turn) => turn.isRewound)).toEqual([false, true]);
    expect(await exists(path.join(fixture.workspace, 'undone.txt'))).toBe(false);
    expect(await readFile(path.join(fixture.workspace, 'kept.txt'), 'utf8')).toBe('kept');

    const other = await connect();
    const reopened = await other.openSession({ sessionId: session.id, agent: 'rewound', roots: [fixture.workspace] });
    expect(reopened.id).toBe(session.id);
    expect(reopened.history.turns.map((turn) => turn.isRewound)).toEqual([false, true]);
  });

  it('tells the agent when its dangerous command waits for a human and when it was decided', async () => {
    const client = await connect();
    const session = await client.openSession({ agent: 'asker', roots: [fixture.workspace] });
    const requested = new Promise<AgentNotificationParams<'approval.requested'>>((resolve) =>
      session.on('approval.requested', resolve),
    );
    const decided = new Promise<AgentNotificationParams<'approval.decided'>>((resolve) =>
      session.on('approval.decided', resolve),
    );
    const call = session.callTool('terminal', { command: 'rm -rf build' });
    const { approval } = await requested;
    expect(approval.sessionId).toBe(session.id);
    await decideAsPerson(fixture, approval.id, 'deny');
    expect((await decided).decision).toBe('denied');
    const outcome = await call;
    expect(outcome.decision).toBe('denied');
    expect(outcome.checkpoints).toEqual([]);
  });

  it('reconnects after the server restarts and re-opens the session by id', async () => {
    const { home } = fixture;
    const { port } = fixture.running.http;
    const { readLiveServeInfo } = await import('../server/serve-info');
    const { vigilPaths } = await import('../lib/vigil-home');
    const client = await VigilAgentClient.connect({
      url: fixture.baseUrl,
      token: fixture.agentToken,
      maxReconnectDelayMs: 200,
      resolveEndpoint: async () => {
        const info = await readLiveServeInfo(vigilPaths(home).serveInfo);
        if (info?.url == null) throw new AppError('disconnected', 'no server yet');
        // The agent credential survives the restart; serve.json only says where the server is now.
        return { url: info.url, token: fixture.agentToken };
      },
    });
    clients.push(client);
    const session = await client.openSession({ agent: 'phoenix', roots: [fixture.workspace] });
    await session.callTool('write_file', { path: 'before.txt', content: 'before' });
    const resumed = new Promise<number>((resolve) => session.onResumed((history) => resolve(history.turns.length)));
    // As a server shutdown does: the gateway ends its connections, then the server stops.
    await fixture.running.core.gateway.dispose();
    await fixture.running.close();
    const { startServe } = await import('../server/start-serve');
    const { silentLogger } = await import('../logging/logger');
    const restarted = await startServe({
      home,
      host: '127.0.0.1',
      port,
      allowRemote: false,
      rendererDir: undefined,
      logger: silentLogger,
    });
    try {
      expect(await resumed).toBe(1);
      const outcome = await session.callTool('write_file', { path: 'after.txt', content: 'after' });
      expect(outcome.result.ok).toBe(true);
      expect(restarted.core.sessions.get(session.id).toolCallCount).toBe(2);
    } finally {
      await client.close();
      await restarted.core.gateway.dispose();
      await restarted.close();
    }
  });
});
