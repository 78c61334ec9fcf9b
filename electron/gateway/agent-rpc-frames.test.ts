import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { jsonRpcErrorCodes, maxAgentFrameBytes } from '../../shared/agent-protocol/json-rpc';
import { startServeFixture, type ServeFixture } from './test-support/gateway-fixture';

let fixture: ServeFixture;

beforeEach(async () => {
  fixture = await startServeFixture();
});

afterEach(async () => {
  await fixture.close();
});

function agentUrl(): string {
  return new URL('/agent', fixture.baseUrl).toString().replace(/^http/, 'ws');
}

function open(headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(agentUrl(), { headers });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`status ${response.statusCode}`)));
    socket.once('error', reject);
  });
}

/** Sends one frame and resolves with the next message, parsed. */
function exchange(socket: WebSocket, frame: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8')) as Record<string, unknown>));
    socket.send(frame);
  });
}

interface ErrorReply {
  readonly id: unknown;
  readonly error: {
    readonly code: number;
    readonly message: string;
    readonly data?: { readonly code: string; readonly field?: string };
  };
}

describe('/agent frames', () => {
  it('answers every malformed frame with a JSON-RPC error naming the problem, and the connection survives', async () => {
    const socket = await open({ authorization: `Bearer ${fixture.agentToken}` });
    const notJson = (await exchange(socket, '{oops')) as unknown as ErrorReply;
    expect(notJson.error.code).toBe(jsonRpcErrorCodes.parseError);
    expect(notJson.id).toBeNull();

    const noVersion = (await exchange(socket, JSON.stringify({ id: 7, method: 'turn.end' }))) as unknown as ErrorReply;
    expect(noVersion.error.code).toBe(jsonRpcErrorCodes.invalidRequest);
    expect(noVersion.error.data?.field).toBe('jsonrpc');
    expect(noVersion.id).toBe(7);

    const unknown = (await exchange(
      socket,
      JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'files.delete' }),
    )) as unknown as ErrorReply;
    expect(unknown.error.code).toBe(jsonRpcErrorCodes.methodNotFound);
    expect(unknown.error.message).toContain('tools.call');

    const missing = (await exchange(
      socket,
      JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'session.open', params: { roots: [fixture.workspace] } }),
    )) as unknown as ErrorReply;
    expect(missing.error.code).toBe(jsonRpcErrorCodes.invalidParams);
    expect(missing.error.data).toMatchObject({ code: 'invalid_request', field: 'agent' });
    expect(missing.error.message).toContain('"agent"');

    const extra = (await exchange(
      socket,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 10,
        method: 'session.open',
        params: { agent: 'a', roots: [fixture.workspace], root: 'typo' },
      }),
    )) as unknown as ErrorReply;
    expect(extra.error.code).toBe(jsonRpcErrorCodes.invalidParams);
    expect(extra.error.message).toContain('root');

    const opened = await exchange(
      socket,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 11,
        method: 'session.open',
        params: { agent: 'raw', roots: [fixture.workspace] },
      }),
    );
    expect(opened['id']).toBe(11);
    expect((opened['result'] as { session: { agent: string } }).session.agent).toBe('raw');
    socket.close();
  });

  it('answers a batch with an array, and a notification with nothing', async () => {
    const socket = await open({ authorization: `Bearer ${fixture.agentToken}` });
    const batch = (await exchange(
      socket,
      JSON.stringify([
        { jsonrpc: '2.0', method: 'session.open', params: { agent: 'silent', roots: [fixture.workspace] } },
        { jsonrpc: '2.0', id: 'b', method: 'session.open', params: { agent: 'loud', roots: [fixture.workspace] } },
        { jsonrpc: '2.0', id: 'c', method: 'nope' },
      ]),
    )) as unknown as Array<{ id: string }>;
    expect(batch.map((response) => response.id)).toEqual(['b', 'c']);
    expect(
      fixture.running.core.sessions
        .list()
        .map((session) => session.agent)
        .sort(),
    ).toEqual(['loud', 'silent']);
    socket.close();
  });

  it('closes the connection on an oversized frame (1009)', async () => {
    const socket = await open({ authorization: `Bearer ${fixture.agentToken}` });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('x'.repeat(maxAgentFrameBytes + 1));
    expect(await closed).toBe(1009);
  });

  it('refuses an upgrade without the token, and one from a foreign Origin', async () => {
    await expect(open({})).rejects.toThrow('status 401');
    await expect(open({ authorization: 'Bearer wrong' })).rejects.toThrow('status 401');
    await expect(
      open({ authorization: `Bearer ${fixture.agentToken}`, origin: 'http://evil.example' }),
    ).rejects.toThrow('status 403');
  });

  it("refuses the UI's credential (403): agents use their own", async () => {
    await expect(open({ authorization: `Bearer ${fixture.uiToken}` })).rejects.toThrow('status 403');
  });
});
