import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from './fixtures/vigil-fixture';

/** Everything a request to the other local server carried, as it arrived. */
interface Received {
  readonly url: string;
  readonly headers: string;
  readonly body: string;
}

/** A dev server on another port of 127.0.0.1 that records every request and upgrade it receives. */
async function startOtherServer(): Promise<{
  readonly origin: string;
  readonly received: Received[];
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const record = (request: IncomingMessage, body: string): void => {
    received.push({ url: request.url ?? '', headers: request.rawHeaders.join('\n'), body });
  };
  const page = `<!doctype html><title>other dev server</title><img src="/pixel.png"><script src="/app.js"></script>`;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      record(request, body);
      response.setHeader('Content-Type', request.url === '/app.js' ? 'text/javascript' : 'text/html');
      response.end(
        request.url === '/app.js' ? 'fetch("/api", { method: "POST", credentials: "include", body: "x" });' : page,
      );
    });
  });
  server.on('upgrade', (request: IncomingMessage, socket) => {
    record(request, '');
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    // The browser may keep a connection to it open: close those too, or close() waits for them.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

test('after Vigil’s URL was opened, a server on another local port receives nothing usable, and a page there cannot reach /ws', async ({
  page,
  vigil,
}) => {
  test.skip(vigil.kind !== 'served', 'only the served UI has a credential in a browser');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const { token, port } = JSON.parse(await readFile(path.join(vigil.home, 'serve.json'), 'utf8')) as {
    token: string;
    port: number;
  };
  expect(page.url()).not.toContain(token);
  expect(await page.context().cookies()).toEqual([]);

  const other = await startOtherServer();
  try {
    await page.goto(`${other.origin}/`);
    await expect.poll(() => other.received.some((request) => request.url === '/api')).toBe(true);
    // The other page opens Vigil's /ws itself: its browser sends the other page's Origin, and it holds no credential.
    const attempt = await page.evaluate(
      (target) =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(target);
          socket.onopen = () => resolve('open');
          socket.onerror = () => resolve('refused');
        }),
      `ws://127.0.0.1:${port}/ws`,
    );
    expect(attempt).toBe('refused');
    expect(
      await page.evaluate(
        () => (globalThis as unknown as { sessionStorage: { length: number } }).sessionStorage.length,
      ),
    ).toBe(0);

    const everything = other.received
      .map((request) => `${request.url}\n${request.headers}\n${request.body}`)
      .join('\n');
    expect(other.received.length).toBeGreaterThanOrEqual(3);
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(token.slice(0, 12));
    expect(everything.toLowerCase()).not.toContain('cookie:');
    expect(everything).not.toContain('vigil');
  } finally {
    await other.close();
  }

  // Back on Vigil's address in the same tab, the page still has its credential and connects again.
  await page.goto(`http://127.0.0.1:${port}/`);
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
});

test('a malformed cookie that a page on another port plants for Vigil’s host never takes vigil serve down', async ({
  page,
  vigil,
}) => {
  test.skip(vigil.kind !== 'served', 'only the served UI runs behind vigil serve');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const { port } = JSON.parse(await readFile(path.join(vigil.home, 'serve.json'), 'utf8')) as { port: number };
  const other = await startOtherServer();
  try {
    await page.goto(`${other.origin}/`);
    // Cookies are not port-scoped: this one reaches Vigil on every request and upgrade.
    await page.evaluate((name) => {
      (globalThis as unknown as { document: { cookie: string } }).document.cookie = `${name}=%E0%A4%A; path=/`;
    }, `vigil_token_${port}`);
    const attempt = await page.evaluate(
      (target) =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(target);
          socket.onopen = () => resolve('open');
          socket.onerror = () => resolve('refused');
        }),
      `ws://127.0.0.1:${port}/ws`,
    );
    expect(attempt).toBe('refused');
  } finally {
    await other.close();
  }
  await page.goto(`http://127.0.0.1:${port}/`);
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const status = await page.evaluate(async () => (await fetch('/ws')).status);
  expect(status).toBe(401);
});
