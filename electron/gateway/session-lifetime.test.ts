import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionStatus, SessionSummary } from '../../shared/contract/sessions-contract';
import { VigilAgentClient } from '../../agent-client/vigil-agent-client';
import { startServe } from '../server/start-serve';
import { silentLogger } from '../logging/logger';
import { connectMcpClient, startServeFixture, type ServeFixture } from './test-support/gateway-fixture';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fixture whose MCP sessions go idle after 0.6 s without a request or an open stream. */
async function shortIdleFixture(): Promise<ServeFixture> {
  const fixture = await startServeFixture({ sessions: { idleMinutes: 0.01 }, gateway: { turnIdleGapMs: 100 } });
  cleanups.push(() => fixture.close());
  return fixture;
}

/** Resolves with the session's summary once it reaches `status` (an event from the core, never a sleep). */
function untilStatus(
  fixture: ServeFixture,
  id: () => string | undefined,
  status: SessionStatus,
): Promise<SessionSummary> {
  const { sessions } = fixture.running.core;
  return new Promise((resolve) => {
    const check = (session: SessionSummary): void => {
      if (session.id !== id() || session.status !== status) return;
      stop();
      resolve(session);
    };
    const stop = sessions.onChanged(check);
    for (const session of sessions.list()) check(session);
  });
}

function sessionOf(fixture: ServeFixture, agent: string): SessionSummary {
  const found = fixture.running.core.sessions.list().find((session) => session.agent === agent);
  if (found === undefined) throw new Error(`no session for ${agent}`);
  return found;
}

/** Speaks MCP over plain fetch: no SSE stream is ever opened, like a client that only posts. */
function rawMcp(fixture: ServeFixture): { post: (body: unknown, sessionId?: string) => Promise<Response> } {
  return {
    post: (body, sessionId) =>
      fetch(new URL(`/mcp?cwd=${encodeURIComponent(fixture.workspace)}`, fixture.baseUrl), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${fixture.agentToken}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }),
        },
        body: JSON.stringify(body),
      }),
  };
}

describe('MCP sessions have a true lifetime', () => {
  it('a real SDK client that exits without an HTTP DELETE leaves a session that reads "disconnected" after the idle time, while a client still connected stays', async () => {
    const fixture = await shortIdleFixture();
    const stays = await connectMcpClient(fixture, { name: 'stays', query: { cwd: fixture.workspace } });
    cleanups.push(() => stays.client.close());
    await stays.client.callTool({ name: 'read_file', arguments: { path: 'nothing.txt' } });

    const { client } = await connectMcpClient(fixture, { name: 'leaves', query: { cwd: fixture.workspace } });
    const written = (await client.callTool({
      name: 'write_file',
      arguments: { path: 'a.txt', content: 'a' },
    })) as CallToolResult;
    expect(written.isError).not.toBe(true);
    const leaving = sessionOf(fixture, 'leaves');
    expect(['working', 'idle']).toContain(leaving.status);
    // What every inspector --cli call and the SDK's own close() do: close the transport, no DELETE.
    await client.close();

    const gone = await untilStatus(fixture, () => leaving.id, 'disconnected');
    expect(gone).toMatchObject({ isTurnOpen: false, toolCallCount: 1, lastActiveAt: leaving.lastActiveAt });
    // The client still connected holds its stream open: it was idle longer, and it is not disconnected.
    expect(sessionOf(fixture, 'stays').status).toBe('idle');
    const log = await readFile(path.join(fixture.home, 'sessions', `${leaving.id}.jsonl`), 'utf8');
    expect(log).toMatch(
      /"type":"disconnected","at":"[^"]+","reason":"no request and no open stream for [\d.]+ s \(sessions.idleMinutes\)"/u,
    );
  });

  it('a later request on a disconnected session revives it, in the same session', async () => {
    const fixture = await shortIdleFixture();
    const mcp = rawMcp(fixture);
    const initialized = await mcp.post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'poster', version: '1' } },
    });
    expect(initialized.status).toBe(200);
    const mcpSessionId = initialized.headers.get('mcp-session-id') ?? '';
    expect((await mcp.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, mcpSessionId)).status).toBe(202);
    let id: string | undefined;
    const opened = new Promise<void>((resolve) => {
      const stop = fixture.running.core.sessions.onChanged((session) => {
        if (session.agent !== 'poster') return;
        id = session.id;
        stop();
        resolve();
      });
    });
    await opened;
    await untilStatus(fixture, () => id, 'disconnected');

    const call = await mcp.post(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'write_file', arguments: { path: 'late.txt', content: 'revived' } },
      },
      mcpSessionId,
    );
    expect(call.status).toBe(200);
    const answer = (await call.json()) as { result: CallToolResult };
    expect(answer.result.isError).not.toBe(true);
    expect(await readFile(path.join(fixture.workspace, 'late.txt'), 'utf8')).toBe('revived');
    const revived = fixture.running.core.sessions.get(id ?? '');
    expect(['working', 'idle']).toContain(revived.status);
    expect(revived.toolCallCount).toBe(1);
    expect(fixture.running.core.sessions.list().filter((session) => session.agent === 'poster')).toHaveLength(1);
    const records = (await readFile(path.join(fixture.home, 'sessions', `${id ?? ''}.jsonl`), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(records.indexOf('resumed')).toBeGreaterThan(records.indexOf('disconnected'));
  });

  it('after a restart, a session that was live reads "disconnected" and keeps its last-active time', async () => {
    const fixture = await startServeFixture();
    const { client } = await connectMcpClient(fixture, { name: 'before-restart', query: { cwd: fixture.workspace } });
    await client.callTool({ name: 'write_file', arguments: { path: 'b.txt', content: 'b' } });
    const before = sessionOf(fixture, 'before-restart');
    await client.close();
    await fixture.running.core.gateway.dispose();
    await fixture.running.close();

    const restarted = await startServe({
      home: fixture.home,
      host: '127.0.0.1',
      port: 0,
      allowRemote: false,
      rendererDir: undefined,
      logger: silentLogger,
    });
    cleanups.push(async () => {
      await restarted.close();
      await fixture.close();
    });
    const after = restarted.core.sessions.get(before.id);
    expect(after).toMatchObject({ status: 'disconnected', lastActiveAt: before.lastActiveAt, toolCallCount: 1 });
  });

  it('a /agent client whose socket drops is disconnected after the grace time (not ended), and session.open with its id revives it', async () => {
    const fixture = await startServeFixture({ gateway: { agentDetachGraceMs: 0 } });
    cleanups.push(() => fixture.close());
    const first = await VigilAgentClient.connect({ url: fixture.baseUrl, token: fixture.agentToken, reconnect: false });
    const session = await first.openSession({ agent: 'rpc-agent', roots: [fixture.workspace] });
    await session.beginTurn('work');
    const dropped = untilStatus(fixture, () => session.id, 'disconnected');
    await first.close();
    expect(await dropped).toMatchObject({ isTurnOpen: false });

    const second = await VigilAgentClient.connect({
      url: fixture.baseUrl,
      token: fixture.agentToken,
      reconnect: false,
    });
    cleanups.push(() => second.close());
    const again = await second.openSession({ agent: 'rpc-agent', roots: [fixture.workspace], sessionId: session.id });
    expect(again.id).toBe(session.id);
    expect(fixture.running.core.sessions.get(session.id).status).toBe('idle');
  });
});
