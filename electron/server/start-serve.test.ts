import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { readServeInfo } from './serve-info';
import { startServe, type RunningServe } from './start-serve';

let home: { dir: string; remove: () => Promise<void> };
let rendererDir: string;
let running: RunningServe | undefined;

beforeEach(async () => {
  home = await makeTempDir();
  rendererDir = path.join(home.dir, 'renderer');
  await mkdir(rendererDir);
  await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>app bundle</title>');
});

afterEach(async () => {
  await running?.close();
  running = undefined;
  await home.remove();
});

async function serve(): Promise<RunningServe> {
  running = await startServe({
    home: path.join(home.dir, 'vigil'),
    host: '127.0.0.1',
    port: 0,
    allowRemote: false,
    rendererDir,
    logger: silentLogger,
  });
  return running;
}

/** Opens a WebSocket and resolves with the first frame, or rejects with the refusal's status. */
function connect(url: string, headers: Record<string, string>): Promise<{ socket: WebSocket; hello: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('message', (data) => resolve({ socket, hello: JSON.parse((data as Buffer).toString()) }));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`status ${response.statusCode}`)));
    socket.once('error', reject);
  });
}

function nextMessage(socket: WebSocket): Promise<unknown> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse((data as Buffer).toString()))));
}

describe('vigil serve security', () => {
  it('serves the page without a credential and sets no cookie; the printed URL keeps the credential in its fragment', async () => {
    const { http, token, pageToken } = await serve();
    // The printed URL carries the page's own credential, not serve.json's.
    expect(http.url).toBe(`${http.baseUrl}#token=${pageToken}`);
    expect(pageToken).not.toBe(token);
    const page = await fetch(http.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('app bundle');
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    // An old `?token=` URL is not exchanged for a cookie any more.
    const legacy = await fetch(`${http.baseUrl}?token=${token}`, { redirect: 'manual' });
    expect([legacy.status, legacy.headers.get('set-cookie')]).toEqual([200, null]);
  });

  it('refuses a foreign Host header (DNS rebinding) on the page and on /ws', async () => {
    const { http, token } = await serve();
    const { request } = await import('node:http');
    const status = (target: string): Promise<number | undefined> =>
      new Promise<number | undefined>((resolve, reject) => {
        const req = request(
          new URL(target, http.baseUrl),
          { headers: { host: `evil.example:${http.port}`, authorization: `Bearer ${token}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode);
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect(await status('/')).toBe(421);
    expect(await status('/ws')).toBe(421);
  });

  it('refuses a WebSocket upgrade without the credential and from a foreign Origin', async () => {
    const { http, token } = await serve();
    const wsUrl = `ws://127.0.0.1:${http.port}/ws`;
    await expect(connect(wsUrl, {})).rejects.toThrow('status 401');
    await expect(connect(wsUrl, { authorization: `Bearer ${token}`, origin: 'https://evil.example' })).rejects.toThrow(
      'status 403',
    );
    await expect(
      connect(wsUrl, { authorization: `Bearer ${token}`, origin: `http://localhost:${http.port + 1}` }),
    ).rejects.toThrow('status 403');
    const own = await connect(wsUrl, { authorization: `Bearer ${token}`, origin: `http://127.0.0.1:${http.port}` });
    expect(own.hello).toMatchObject({ type: 'hello' });
    own.socket.close();
  });

  it('carries the contract: a valid call answers, a bad frame gets an error naming the field and the socket stays up', async () => {
    const { http, token } = await serve();
    const { socket } = await connect(`ws://127.0.0.1:${http.port}/ws`, { authorization: `Bearer ${token}` });
    socket.send(JSON.stringify({ type: 'call', id: 1, channel: 'app:info', payload: {} }));
    expect(await nextMessage(socket)).toMatchObject({
      type: 'result',
      id: 1,
      result: { ok: true, value: { name: 'vigil' } },
    });
    socket.send(JSON.stringify({ type: 'call', id: 'two', channel: 'app:info' }));
    expect(await nextMessage(socket)).toMatchObject({
      type: 'result',
      id: null,
      result: { ok: false, error: { code: 'invalid_request', details: { field: 'id' } } },
    });
    socket.send(JSON.stringify({ type: 'call', id: 3, channel: 'app:info', payload: { extra: 1 } }));
    expect(await nextMessage(socket)).toMatchObject({
      id: 3,
      result: { ok: false, error: { code: 'invalid_request' } },
    });
    socket.send(JSON.stringify({ type: 'call', id: 4, channel: 'nope:nothing', payload: {} }));
    expect(await nextMessage(socket)).toMatchObject({ id: 4, result: { ok: false, error: { code: 'unknown_call' } } });
    socket.send('not json');
    expect(await nextMessage(socket)).toMatchObject({
      id: null,
      result: { ok: false, error: { code: 'invalid_request' } },
    });
    socket.send(JSON.stringify({ type: 'call', id: 5, channel: 'app:info', payload: {} }));
    expect(await nextMessage(socket)).toMatchObject({ id: 5, result: { ok: true } });
    socket.close();
  });

  it('closes the socket on a frame over the size limit', async () => {
    const { http, token } = await serve();
    const { socket } = await connect(`ws://127.0.0.1:${http.port}/ws`, { authorization: `Bearer ${token}` });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('x'.repeat(9 * 1024 * 1024));
    expect(await closed).toBe(1009);
  });
});

describe('serve.json', () => {
  it('is written with mode 0600 and the real port, and removed on close', async () => {
    const { http, token } = await serve();
    const file = path.join(home.dir, 'vigil', 'serve.json');
    const info = await readServeInfo(file);
    expect(info).toMatchObject({ pid: process.pid, port: http.port, token, url: http.baseUrl });
    expect(JSON.stringify(info)).not.toContain(running?.pageToken);
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    await running?.close();
    running = undefined;
    expect(await readServeInfo(file)).toBeUndefined();
  });

  it('refuses a second server on the same VIGIL_HOME while the first runs, naming its pid', async () => {
    const { spawnVigil } = await import('../test-support/run-vigil');
    const vigilHome = path.join(home.dir, 'vigil');
    const first = spawnVigil(['serve', '--port', '0'], { env: { VIGIL_HOME: vigilHome } });
    try {
      await new Promise<void>((resolve, reject) => {
        first.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('url: ')) resolve();
        });
        first.on('exit', () => reject(new Error('first server exited')));
      });
      const second = startServe({
        home: vigilHome,
        host: '127.0.0.1',
        port: 0,
        allowRemote: false,
        rendererDir,
        logger: silentLogger,
      });
      await expect(second).rejects.toThrow(`pid ${first.pid}`);
    } finally {
      first.kill('SIGTERM');
      await new Promise((resolve) => first.once('exit', resolve));
    }
    expect(await readServeInfo(path.join(vigilHome, 'serve.json'))).toBeUndefined();
  });

  it('takes over a stale serve.json whose process is gone', async () => {
    const vigilHome = path.join(home.dir, 'vigil');
    await mkdir(vigilHome, { recursive: true });
    const { spawnSync } = await import('node:child_process');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(dead.stdout.toString());
    await writeFile(
      path.join(vigilHome, 'serve.json'),
      JSON.stringify({ pid: deadPid, port: 1, token: 'old', url: null, version: '0', startedAt: 'then' }),
      { mode: 0o600 },
    );
    const { http } = await serve();
    expect((await readServeInfo(path.join(vigilHome, 'serve.json')))?.port).toBe(http.port);
  });
});

describe('shutdown', () => {
  it('closes promptly while a WebSocket client stays connected', async () => {
    const { http, token } = await serve();
    const { socket } = await connect(`ws://127.0.0.1:${http.port}/ws`, { authorization: `Bearer ${token}` });
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await running?.close();
    running = undefined;
    await closed;
  });
});
