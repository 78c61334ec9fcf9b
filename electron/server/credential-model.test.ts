import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createFileLogger, type Logger } from '../logging/logger';
import { agentCredentialFor } from '../test-support/agent-credential';
import { makeTempDir } from '../test-support/temp-dir';
import { AgentCredentialStore } from './agent-credentials';
import { startServe, type RunningServe } from './start-serve';

let temp: { dir: string; remove: () => Promise<void> };
let running: RunningServe | undefined;
let logger: Logger;

beforeEach(async () => {
  temp = await makeTempDir('vigil-credentials-');
  logger = createFileLogger({ directory: path.join(temp.dir, 'logs') });
});

afterEach(async () => {
  await running?.core.gateway.dispose();
  await running?.close();
  running = undefined;
  await temp.remove();
});

const home = (): string => path.join(temp.dir, 'vigil');

async function serve(): Promise<RunningServe> {
  running = await startServe({
    home: home(),
    host: '127.0.0.1',
    port: 0,
    allowRemote: false,
    rendererDir: undefined,
    logger,
  });
  return running;
}

/** Opens a WebSocket; resolves with the socket once open, or rejects with the refusal's status and body. */
function open(
  url: string,
  options: { readonly headers?: Record<string, string>; readonly protocols?: string[] } = {},
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers ?? {} });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => reject(new Error(`status ${response.statusCode ?? 0}: ${body}`)));
    });
    socket.once('error', reject);
  });
}

describe('the two credentials', () => {
  it("the page's subprotocol carries the UI credential to /ws; the server selects vigil-ui and never echoes the credential", async () => {
    const { http, token } = await serve();
    const socket = await open(`ws://127.0.0.1:${http.port}/ws`, {
      protocols: ['vigil-ui', `vigil-token.${token}`],
      headers: { origin: `http://127.0.0.1:${http.port}` },
    });
    expect(socket.protocol).toBe('vigil-ui');
    socket.close();
    await expect(
      open(`ws://127.0.0.1:${http.port}/ws`, { protocols: ['vigil-ui', 'vigil-token.wrong-credential-000000000'] }),
    ).rejects.toThrow('status 401');
  });

  it('an agent credential on /ws gets 403, by header or subprotocol; the attempt is logged and shown in the UI', async () => {
    const { http, core } = await serve();
    const problems: string[] = [];
    core.events.on('app:problem-reported', (problem) => problems.push(problem.message));
    const agent = await agentCredentialFor(home(), 'sneaky');
    const url = `ws://127.0.0.1:${http.port}/ws`;
    await expect(open(url, { headers: { authorization: `Bearer ${agent}` } })).rejects.toThrow(
      /status 403: The agent credential "sneaky" cannot reach \/ws/,
    );
    await expect(open(url, { protocols: ['vigil-ui', `vigil-token.${agent}`] })).rejects.toThrow('status 403');
    const plain = await fetch(new URL('/ws', http.baseUrl), { headers: { authorization: `Bearer ${agent}` } });
    expect(plain.status).toBe(403);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('vigil connect --revoke sneaky');
    await logger.flush();
    const log = await readFile(path.join(temp.dir, 'logs', 'vigil.log'), 'utf8');
    expect(log.match(/refused the agent credential \\"sneaky\\" on \/ws/g)).toHaveLength(3);
    expect(log).not.toContain(agent);
  });

  it('the UI credential on /mcp and /agent gets 403 naming vigil connect; an agent credential gets in', async () => {
    const { http, token } = await serve();
    const mcp = await fetch(new URL('/mcp', http.baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(mcp.status).toBe(403);
    expect(await mcp.text()).toContain('vigil connect');
    await expect(
      open(`ws://127.0.0.1:${http.port}/agent`, { headers: { authorization: `Bearer ${token}` } }),
    ).rejects.toThrow(/status 403: .*vigil connect/);
    const agent = await open(`ws://127.0.0.1:${http.port}/agent`, {
      headers: { authorization: `Bearer ${await agentCredentialFor(home())}` },
    });
    agent.close();
  });

  it('/ws without a credential is 401 naming serve.json; /mcp without one is 401 naming vigil connect', async () => {
    const { http } = await serve();
    const ws = await fetch(new URL('/ws', http.baseUrl));
    expect(ws.status).toBe(401);
    expect(await ws.text()).toContain('serve.json');
    const mcp = await fetch(new URL('/mcp', http.baseUrl), { method: 'POST', body: '{}' });
    expect(mcp.status).toBe(401);
    expect(await mcp.text()).toContain('vigil connect');
  });

  it('a bad cookie never takes the server down: the page, /ws and /agent still answer with 2xx or 4xx', async () => {
    const { http, token } = await serve();
    const cookie = `vigil_token_${http.port}=%E0%A4%A`;
    await expect(open(`ws://127.0.0.1:${http.port}/ws`, { headers: { cookie } })).rejects.toThrow('status 401');
    await expect(open(`ws://127.0.0.1:${http.port}/agent`, { headers: { cookie } })).rejects.toThrow('status 401');
    expect((await fetch(new URL('/ws', http.baseUrl), { headers: { cookie } })).status).toBe(401);
    const page = await fetch(http.baseUrl, { headers: { cookie } });
    expect(page.status).toBe(404);
    // The old cookie is dropped from the browser that still holds it.
    expect(page.headers.get('set-cookie')).toBe(`vigil_token_${http.port}=; Max-Age=0; Path=/`);
    const socket = await open(`ws://127.0.0.1:${http.port}/ws`, {
      headers: { cookie, authorization: `Bearer ${token}` },
    });
    socket.close();
  });
});

describe('the agent credential store', () => {
  it('keeps one stable credential per name in a 0600 file, survives a restart of the server, and revokes at once', async () => {
    const { http } = await serve();
    const store = new AgentCredentialStore(path.join(home(), 'agent-credentials.json'));
    const first = await store.issue('claude-code');
    expect(first.isNew).toBe(true);
    expect(await store.issue('claude-code')).toEqual({ ...first, isNew: false });
    if (process.platform !== 'win32') expect((await stat(store.file)).mode & 0o777).toBe(0o600);
    const headers = { authorization: `Bearer ${first.secret}` };
    (await open(`ws://127.0.0.1:${http.port}/agent`, { headers })).close();

    await running?.core.gateway.dispose();
    await running?.close();
    const again = await serve();
    (await open(`ws://127.0.0.1:${again.http.port}/agent`, { headers })).close();

    expect(await store.revoke('claude-code')).toBe(true);
    expect(await store.revoke('claude-code')).toBe(false);
    await expect(open(`ws://127.0.0.1:${again.http.port}/agent`, { headers })).rejects.toThrow('status 401');
    expect(await store.list()).toEqual([]);
  });

  it('refuses a bad name, and neither uses nor rewrites a file it cannot read', async () => {
    const store = new AgentCredentialStore(path.join(temp.dir, 'agent-credentials.json'));
    await expect(store.issue('Bad Name')).rejects.toMatchObject({ code: 'invalid_request' });
    const { writeFile } = await import('node:fs/promises');
    await writeFile(store.file, '{ not json', { mode: 0o600 });
    await expect(store.issue('cursor')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('Move it aside') as unknown,
    });
    await expect(store.revoke('cursor')).rejects.toMatchObject({ code: 'conflict' });
    expect(await store.identify('vigil_agent_whatever-at-all-0000000')).toBeUndefined();
    expect(await readFile(store.file, 'utf8')).toBe('{ not json');
  });
});
