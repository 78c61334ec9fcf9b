import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { relayCall } from './relay-client';
import type { ServeCredential } from './serve-credential';

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * relayCall's outcomes against real loopback servers: what counts as "never ran" (the caller may
 * work in-process), what is the core's answer, and what is a core that died mid-call.
 */
describe('a relayed call', () => {
  const servers: Server[] = [];
  const netServers: NetServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
    for (const server of netServers.splice(0)) server.close();
  });

  async function start(answer: Answer): Promise<ServeCredential> {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => answer(request, response));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    return { pid: process.pid, origin: `http://127.0.0.1:${port}`, token: 'secret-token' };
  }

  const frame = (value: unknown): string => `${JSON.stringify(value)}\n`;

  it('streams the events asked for, then answers with the result, sending the token as a bearer credential', async () => {
    let seen: IncomingMessage | undefined;
    const credential = await start((request, response) => {
      seen = request;
      response.writeHead(200, { 'X-Vigil-Contract': '1' });
      response.write(frame({ type: 'event', name: 'restore:progress', payload: { done: 1, note: 'naïve ✓' } }));
      response.write(frame({ type: 'event', name: 'restore:progress', payload: { done: 2 } }));
      response.end(frame({ type: 'result', id: null, result: { ok: true, value: { restored: 2 } } }));
    });
    const events: unknown[] = [];
    const outcome = await relayCall(
      credential,
      'checkpoints:restore',
      { dir: '/x' },
      {
        events: ['restore:progress'],
        onEvent: (name, payload) => events.push([name, payload]),
      },
    );
    expect(outcome).toEqual({ kind: 'answered', result: { ok: true, value: { restored: 2 } } });
    expect(events).toEqual([
      ['restore:progress', { done: 1, note: 'naïve ✓' }],
      ['restore:progress', { done: 2 }],
    ]);
    expect(seen?.headers.authorization).toBe('Bearer secret-token');
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/ws');
  });

  it('counts a server that is not a Vigil core as unreachable, and never reads its body as events', async () => {
    const credential = await start((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
      response.end(frame({ type: 'event', name: 'checkpoints:created', payload: {} }));
    });
    const events: unknown[] = [];
    const outcome = await relayCall(credential, 'checkpoints:list', {}, { onEvent: (name) => events.push(name) });
    expect(outcome).toEqual({ kind: 'unreachable', reason: `${credential.origin} is not a Vigil core (HTTP 200)` });
    expect(events).toEqual([]);
  });

  it('counts a wrong token and a refusal before dispatch as unreachable, saying why', async () => {
    const refusing = await start((_request, response) => {
      response.writeHead(415, { 'X-Vigil-Contract': '1' });
      response.end(JSON.stringify({ ok: false, error: { code: 'invalid_request', message: 'Send JSON.' } }));
    });
    expect(await relayCall(refusing, 'checkpoints:list', {})).toEqual({
      kind: 'unreachable',
      reason: 'the core refused the request (HTTP 415: Send JSON.)',
    });
    const wrongToken = await start((_request, response) => {
      response.writeHead(401, { 'X-Vigil-Contract': '1' });
      response.end('{}');
    });
    expect(await relayCall(wrongToken, 'checkpoints:list', {})).toEqual({
      kind: 'unreachable',
      reason: `the core at ${wrongToken.origin} refused serve.json's token`,
    });
    expect(await relayCall({ ...wrongToken, token: 'forged\r\nX-Injected: 1' }, 'checkpoints:list', {})).toEqual({
      kind: 'unreachable',
      reason: "serve.json's token has characters a header cannot carry",
    });
  });

  it('rejects as disconnected when the core dies after taking the call (it may have run)', async () => {
    const credential = await start((_request, response) => {
      response.writeHead(200, { 'X-Vigil-Contract': '1' });
      response.flushHeaders();
      setTimeout(() => response.socket?.destroy(), 20);
    });
    await expect(relayCall(credential, 'checkpoints:create', {})).rejects.toMatchObject({ code: 'disconnected' });
  });

  it('counts a peer that accepts the connection and never answers as unreachable, without hanging', async () => {
    let received = '';
    const silent = createNetServer((socket) => socket.on('data', (bytes: Buffer) => (received += bytes.toString())));
    netServers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const credential = { pid: process.pid, origin: `http://127.0.0.1:${port}`, token: 'secret-token' };
    expect(await relayCall(credential, 'checkpoints:list', {}, { answerTimeoutMs: 200 })).toEqual({
      kind: 'unreachable',
      reason: `${credential.origin} accepted the connection but did not ask for the call within 200 ms (a Vigil core asks at once), so the call was never sent`,
    });
    // Only the head went: a core that was stopped and resumes later has no call to run.
    expect(received).toMatch(/^POST \/ws HTTP\/1\.1\r\n[^]*Expect: 100-continue\r\n[^]*\r\n\r\n$/);
    expect(received).not.toContain('checkpoints:list');
  });

  it('takes a core that answers slowly but within the answer time as answered', async () => {
    const credential = await start((_request, response) => {
      setTimeout(() => {
        response.writeHead(200, { 'X-Vigil-Contract': '1' });
        response.end(frame({ type: 'result', id: null, result: { ok: true, value: 'late' } }));
      }, 100);
    });
    expect(await relayCall(credential, 'checkpoints:list', {}, { answerTimeoutMs: 2_000 })).toEqual({
      kind: 'answered',
      result: { ok: true, value: 'late' },
    });
  });

  it('counts a closed port as unreachable', async () => {
    const credential = await start((_request, response) => response.end());
    const closed = servers.pop();
    await new Promise((resolve) => closed?.close(resolve));
    const outcome = await relayCall(credential, 'checkpoints:list', {});
    expect(outcome.kind).toBe('unreachable');
    expect(outcome.kind === 'unreachable' ? outcome.reason : '').toContain('ECONNREFUSED');
  });
});
