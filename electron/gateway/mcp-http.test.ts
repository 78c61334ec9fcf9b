import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../shared/contract/sessions-contract';
import { toolInputJsonSchema } from '../../shared/tools/tool-json-schema';
import { toolDefinitions } from '../../shared/tools/tool-registry';
import { connectMcpClient, startServeFixture, type ServeFixture } from './test-support/gateway-fixture';

let fixture: ServeFixture;

beforeEach(async () => {
  fixture = await startServeFixture({ gateway: { turnIdleGapMs: 150 } });
});

afterEach(async () => {
  await fixture.close();
});

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function sessionOf(agent: string): SessionSummary {
  const found = fixture.running.core.sessions.list().find((session) => session.agent === agent);
  if (found === undefined) throw new Error(`no session for ${agent}`);
  return found;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

describe('MCP over Streamable HTTP (/mcp)', () => {
  it('lists every shared tool with the input schema generated from it, required fields included', async () => {
    const { client } = await connectMcpClient(fixture, { query: { cwd: fixture.workspace } });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(toolDefinitions.map((definition) => definition.name));
    for (const definition of toolDefinitions) {
      const { $schema: _dialect, ...expected } = toolInputJsonSchema(definition);
      expect(tools.find((tool) => tool.name === definition.name)?.inputSchema).toEqual(expected);
    }
    const writeFile = tools.find((tool) => tool.name === 'write_file');
    expect(writeFile?.inputSchema.required).toEqual(['path', 'content']);
    expect(writeFile?.inputSchema['additionalProperties']).toBe(false);
    await client.close();
  });

  it('writes through the executor: the file, the structured result and the checkpoint record', async () => {
    const { client } = await connectMcpClient(fixture, { name: 'writer', query: { cwd: fixture.workspace } });
    const result = (await client.callTool({
      name: 'write_file',
      arguments: { path: 'notes/a.txt', content: 'hello' },
    })) as CallToolResult;
    expect(result.isError).not.toBe(true);
    expect(await readFile(path.join(fixture.workspace, 'notes/a.txt'), 'utf8')).toBe('hello');
    expect(result.structuredContent).toMatchObject({ bytes_written: 5, created: true });
    const call = result._meta?.['vigil/call'] as { decision: string; turn: number };
    expect(call.decision).toBe('allowed');
    const session = sessionOf('writer');
    expect(session.roots).toEqual([fixture.workspace]);
    expect(session.client).toContain('writer 1.0.0');
    expect(session.toolCallCount).toBe(1);
    await client.close();
  });

  it('refuses a write_file without content (seed 004), naming the field, and creates no file', async () => {
    const { client } = await connectMcpClient(fixture, { query: { cwd: fixture.workspace } });
    const dropped = (await client.callTool({
      name: 'write_file',
      arguments: { path: 'dropped.md' },
    })) as CallToolResult;
    expect(dropped.isError).toBe(true);
    expect(text(dropped)).toMatch(/"content" is missing/);
    expect(await exists(path.join(fixture.workspace, 'dropped.md'))).toBe(false);

    const bare = (await client.callTool({ name: 'write_file', arguments: {} })) as CallToolResult;
    expect(bare.isError).toBe(true);
    expect(text(bare)).toMatch(/"path" is missing/);

    const empty = (await client.callTool({
      name: 'write_file',
      arguments: { path: 'empty.md', content: '' },
    })) as CallToolResult;
    expect(empty.isError).not.toBe(true);
    expect(await readFile(path.join(fixture.workspace, 'empty.md'), 'utf8')).toBe('');
    await client.close();
  });

  it("takes the workspace from the client's MCP roots when it offers them", async () => {
    const elsewhere = path.join(fixture.scratch, 'rooted');
    await mkdir(elsewhere);
    const { client } = await connectMcpClient(fixture, { name: 'rooted-client', roots: [elsewhere] });
    const result = (await client.callTool({
      name: 'write_file',
      arguments: { path: 'from-roots.txt', content: 'x' },
    })) as CallToolResult;
    expect(result.isError).not.toBe(true);
    expect(await readFile(path.join(elsewhere, 'from-roots.txt'), 'utf8')).toBe('x');
    expect(sessionOf('rooted-client').roots).toEqual([elsewhere]);
    const outside = (await client.callTool({
      name: 'write_file',
      arguments: { path: path.join(fixture.workspace, 'no.txt'), content: 'x' },
    })) as CallToolResult;
    expect(outside.isError).toBe(true);
    expect(await exists(path.join(fixture.workspace, 'no.txt'))).toBe(false);
    await client.close();
  });

  it('tells a client with neither roots nor ?cwd= how to give its workspace', async () => {
    const { client } = await connectMcpClient(fixture);
    const result = (await client.callTool({
      name: 'write_file',
      arguments: { path: 'x.txt', content: 'x' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('?cwd=');
    expect(text(result)).toContain('vigil mcp --cwd');
    await client.close();
  });

  it('groups calls into the turns marked by _meta["vigil/turn"]', async () => {
    const { client } = await connectMcpClient(fixture, { name: 'marker', query: { cwd: fixture.workspace } });
    const write = (file: string, turn: unknown): Promise<unknown> =>
      client.callTool({ name: 'write_file', arguments: { path: file, content: file }, _meta: { 'vigil/turn': turn } });
    await write('one.txt', { id: 't1', userMessage: 'first request' });
    await write('two.txt', 't1');
    await write('three.txt', { id: 't2', userMessage: 'second request' });
    const bad = (await write('four.txt', 42)) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('vigil/turn');
    expect(await exists(path.join(fixture.workspace, 'four.txt'))).toBe(false);

    const history = await fixture.running.core.sessions.history(sessionOf('marker').id);
    const callsPerTurn = history.turns.map((turn) => turn.entries.filter((entry) => entry.kind === 'tool-call').length);
    expect(callsPerTurn).toEqual([2, 1]);
    const userMessages = history.turns.map((turn) =>
      turn.entries.find((entry) => entry.kind === 'message' && entry.role === 'user'),
    );
    expect(userMessages.map((entry) => (entry?.kind === 'message' ? entry.text : undefined))).toEqual([
      'first request',
      'second request',
    ]);
    await client.close();
  });

  it('without marks, ends a turn after the idle gap and starts the next with the next call', async () => {
    const { client } = await connectMcpClient(fixture, { name: 'bursty', query: { cwd: fixture.workspace } });
    await client.callTool({ name: 'write_file', arguments: { path: 'a.txt', content: 'a' } });
    await client.callTool({ name: 'write_file', arguments: { path: 'b.txt', content: 'b' } });
    const { sessions } = fixture.running.core;
    const id = sessionOf('bursty').id;
    await new Promise<void>((resolve) => {
      const stop = sessions.onChanged((session) => {
        if (session.id === id && !session.isTurnOpen) {
          stop();
          resolve();
        }
      });
      if (!sessions.get(id).isTurnOpen) {
        stop();
        resolve();
      }
    });
    await client.callTool({ name: 'write_file', arguments: { path: 'c.txt', content: 'c' } });
    const turns = (await sessions.history(id)).turns.map(
      (turn) => turn.entries.filter((entry) => entry.kind === 'tool-call').length,
    );
    expect(turns).toEqual([2, 1]);
    await client.close();
  });

  it('names the agent from clientInfo unless ?agent= overrides it, and ends the session when the client leaves', async () => {
    const { client, transport } = await connectMcpClient(fixture, {
      name: 'named-client',
      query: { cwd: fixture.workspace, agent: 'Override' },
    });
    await client.callTool({ name: 'read_file', arguments: { path: 'missing.txt' } });
    const id = sessionOf('Override').id;
    await transport.terminateSession();
    await client.close();
    expect(fixture.running.core.sessions.get(id).status).toBe('ended');
  });
});

describe('/mcp security', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  const post = (headers: Record<string, string>, body: string = JSON.stringify(initialize)): Promise<Response> =>
    fetch(new URL('/mcp', fixture.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body,
    });

  it('refuses a request without the token, or with a wrong one', async () => {
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
    await expect(connectMcpClient(fixture, { token: 'wrong' })).rejects.toThrow();
  });

  it("refuses the UI's credential with 403, naming vigil connect, and starts no session", async () => {
    const response = await post({ authorization: `Bearer ${fixture.uiToken}` });
    expect(response.status).toBe(403);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('denied');
    expect(body.error.message).toContain('vigil connect');
    await expect(connectMcpClient(fixture, { token: fixture.uiToken })).rejects.toThrow();
    expect(fixture.running.core.sessions.list()).toHaveLength(0);
  });

  it('refuses a revoked agent credential from its next request, and takes a re-issued one', async () => {
    const { AgentCredentialStore } = await import('../server/agent-credentials');
    const store = new AgentCredentialStore(path.join(fixture.home, 'agent-credentials.json'));
    const { client } = await connectMcpClient(fixture, { roots: [fixture.workspace] });
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(await store.revoke('test-agent')).toBe(true);
    await expect(client.listTools()).rejects.toThrow(/unknown or was revoked/);
    const reissued = await store.issue('test-agent');
    expect(reissued.isNew).toBe(true);
    expect(reissued.secret).not.toBe(fixture.agentToken);
    expect((await post({ authorization: `Bearer ${fixture.agentToken}` })).status).toBe(401);
    const { client: again } = await connectMcpClient(fixture, { token: reissued.secret, roots: [fixture.workspace] });
    expect((await again.listTools()).tools.length).toBeGreaterThan(0);
    await Promise.all([client.close(), again.close()]);
  });

  it('refuses a foreign Origin even with the token', async () => {
    const response = await post({ authorization: `Bearer ${fixture.agentToken}`, origin: 'http://evil.example' });
    expect(response.status).toBe(403);
    expect(fixture.running.core.sessions.list()).toHaveLength(0);
  });

  it('answers 404 to an unknown session id, 400 to a first request that is not initialize, 413 to an oversized body', async () => {
    const auth = { authorization: `Bearer ${fixture.agentToken}` };
    expect((await post({ ...auth, 'mcp-session-id': 'nope' })).status).toBe(404);
    expect((await post(auth, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }))).status).toBe(400);
    const huge = JSON.stringify({ ...initialize, padding: 'x'.repeat(17 * 1024 * 1024) });
    expect((await post(auth, huge)).status).toBe(413);
  });
});
