import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket as PeerSocket } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionState } from '../model/connection-state';
import { connectVigil, type VigilClient } from './vigil-client';

/** How the test server treats the page: take its upgrades, refuse them (503: try later), or refuse its token (401). */
type Mode = 'accept' | 'busy' | 'token-refused';

/** A real HTTP + WebSocket server on 127.0.0.1 that plays `vigil serve`'s part, and records every call frame it received. */
interface PeerServer {
  readonly page: URL;
  mode: Mode;
  readonly receivedCalls: { readonly id: number; readonly channel: string }[];
  readonly isListening: boolean;
  /** Closes the page's open sockets as a crash would (no close frame). */
  dropSockets(): void;
  /** Stops listening altogether (as a killed `vigil serve`). */
  stop(): Promise<void>;
  /** Listens again on the same port (as a restarted `vigil serve`). */
  restart(mode: Mode): Promise<void>;
}

const servers: PeerServer[] = [];
/** The UI credential the test pages carry in their fragment. */
const pageToken = 'page-credential-0123456789abcdef';
/** What each upgrade offered as subprotocols, and the Cookie header it carried. */
const handshakes: { readonly protocols: readonly string[]; readonly cookie: string }[] = [];
const clients: VigilClient[] = [];

async function startPeer(
  mode: Mode,
  options: { readonly answerCalls: boolean } = { answerCalls: true },
): Promise<PeerServer> {
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<Duplex>();
  const receivedCalls: { id: number; channel: string }[] = [];
  const refusal = (): [number, string] | undefined =>
    peer.mode === 'busy'
      ? [503, 'Service Unavailable']
      : peer.mode === 'token-refused'
        ? [401, 'Unauthorized']
        : undefined;
  const http: Server = createServer((request, response) => {
    response.statusCode = peer.mode === 'token-refused' ? 401 : 200;
    response.end();
  });
  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const offered = request.headers['sec-websocket-protocol'] ?? '';
    handshakes.push({
      protocols: offered.split(',').map((protocol) => protocol.trim()),
      cookie: request.headers.cookie ?? '',
    });
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    const refused = refusal();
    if (refused !== undefined) {
      socket.end(`HTTP/1.1 ${refused[0]} ${refused[1]}\r\nConnection: close\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws: PeerSocket) => {
      ws.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString('utf8')) as { id: number; channel: string };
        receivedCalls.push({ id: frame.id, channel: frame.channel });
        if (options.answerCalls)
          ws.send(
            JSON.stringify({ type: 'result', id: frame.id, result: { ok: true, value: { answered: frame.id } } }),
          );
      });
    });
  });
  const listen = (port: number): Promise<void> =>
    new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  let isListening = true;
  await listen(0);
  const { port } = http.address() as AddressInfo;
  const peer: PeerServer = {
    page: new URL(`http://127.0.0.1:${port}/`),
    mode,
    receivedCalls,
    dropSockets: () => {
      for (const socket of sockets) socket.destroy();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        isListening = false;
        for (const socket of sockets) socket.destroy();
        http.close(() => resolve());
        http.closeAllConnections();
      }),
    restart: async (nextMode) => {
      peer.mode = nextMode;
      isListening = true;
      await listen(port);
    },
    get isListening() {
      return isListening;
    },
  };
  servers.push(peer);
  return peer;
}

/** Loads the page from `peer` (as the browser would) and connects the way the app does. */
function connect(peer: PeerServer): VigilClient {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
    `${peer.page.href}#token=${pageToken}`,
  );
  const client = connectVigil();
  clients.push(client);
  return client;
}

/** Resolves with the first connection state that satisfies `test` (the current one included). */
function waitForState(client: VigilClient, test: (state: ConnectionState) => boolean): Promise<ConnectionState> {
  return new Promise((resolve) => {
    const dispose = client.onConnectionChanged((state) => {
      if (!test(state)) return;
      queueMicrotask(() => dispose());
      resolve(state);
    });
  });
}

afterEach(async () => {
  // A refused token is the one answer after which a client stops retrying: end every test with it.
  for (const peer of servers) {
    if (peer.isListening) peer.mode = 'token-refused';
    else await peer.restart('token-refused');
    peer.dropSockets();
  }
  await Promise.all(clients.splice(0).map((client) => waitForState(client, (state) => state.kind === 'disconnected')));
  for (const peer of servers.splice(0)) await peer.stop();
});

describe('WebSocket transport: a call the UI was told failed never runs later', () => {
  it('a call queued during the first connect is answered "not sent" when that connect fails, and is not sent by the next one', async () => {
    const peer = await startPeer('busy');
    const client = connect(peer);
    const early = await client.call('app:info', {});
    expect(early).toMatchObject({ ok: false, error: { code: 'disconnected', details: { sent: false } } });

    await waitForState(client, (state) => state.kind === 'reconnecting');
    peer.mode = 'accept';
    await waitForState(client, (state) => state.kind === 'connected');
    const later = await client.call('app:info', {});
    expect(later).toMatchObject({ ok: true });
    // Frames on one socket arrive in order: had the failed call been kept, it would come first.
    expect(peer.receivedCalls.map((call) => call.id)).toEqual([2]);
  });

  it('a call made while reconnecting fails at once and is never sent after the link is back', async () => {
    const peer = await startPeer('accept');
    const client = connect(peer);
    await waitForState(client, (state) => state.kind === 'connected');
    peer.mode = 'busy';
    peer.dropSockets();
    await waitForState(client, (state) => state.kind === 'reconnecting');

    const during = await client.call('app:info', {});
    expect(during).toMatchObject({ ok: false, error: { code: 'disconnected', details: { sent: false } } });

    peer.mode = 'accept';
    await waitForState(client, (state) => state.kind === 'connected');
    const after = await client.call('app:info', {});
    expect(after).toMatchObject({ ok: true, value: { answered: 2 } });
    expect(peer.receivedCalls.map((call) => call.id)).toEqual([2]);
  });

  it('a call that was sent and then lost its socket is answered "may or may not have run"', async () => {
    const peer = await startPeer('accept', { answerCalls: false });
    const client = connect(peer);
    await waitForState(client, (state) => state.kind === 'connected');
    const answer = client.call('app:info', {});
    await expect.poll(() => peer.receivedCalls.length).toBe(1);
    peer.dropSockets();
    const result = await answer;
    expect(result).toMatchObject({ ok: false, error: { code: 'disconnected' } });
    expect(result.ok ? undefined : result.error.details).toBeUndefined();
    expect(result.ok ? '' : result.error.message).toContain('may or may not have run');
  });
});

describe('WebSocket transport: why the link is down', () => {
  it('a stopped server shows as reconnecting, not reachable; restarted with a new token, as disconnected, naming the token', async () => {
    const peer = await startPeer('accept');
    const client = connect(peer);
    await waitForState(client, (state) => state.kind === 'connected');
    await peer.stop();
    const state = await waitForState(client, (next) => next.kind === 'reconnecting');
    expect(state).toMatchObject({
      kind: 'reconnecting',
      attempt: 1,
      reason: expect.stringContaining('not reachable') as unknown,
    });

    await peer.restart('token-refused');
    const final = await waitForState(client, (next) => next.kind === 'disconnected');
    expect(final.kind === 'disconnected' ? final.reason : '').toMatch(/token.*reopen the URL that vigil serve printed/);
  });

  it('a server that refuses the page’s token (restarted with a new one) shows as disconnected at once, naming the token', async () => {
    const peer = await startPeer('accept');
    const client = connect(peer);
    await waitForState(client, (state) => state.kind === 'connected');
    peer.mode = 'token-refused';
    peer.dropSockets();
    const state = await waitForState(client, (next) => next.kind !== 'connected');
    expect(state.kind).toBe('disconnected');
    expect(state.kind === 'disconnected' ? state.reason : '').toMatch(/token.*reopen the URL that vigil serve printed/);
  });
});

describe('WebSocket transport: the UI credential never rides in a cookie', () => {
  it('takes the token from the fragment, cleans the address bar, keeps it in sessionStorage and offers it as a subprotocol only', async () => {
    window.sessionStorage.clear();
    handshakes.length = 0;
    const peer = await startPeer('accept');
    const client = connect(peer);
    await waitForState(client, (state) => state.kind === 'connected');
    expect(window.location.href).toBe(peer.page.href);
    expect(window.location.href).not.toContain(pageToken);
    expect(handshakes).toEqual([{ protocols: ['vigil-ui', `vigil-token.${pageToken}`], cookie: '' }]);

    // A reload of the cleaned address in the same tab finds the credential in sessionStorage.
    (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${peer.page.href}#/approvals`);
    const reloaded = connectVigil();
    clients.push(reloaded);
    await waitForState(reloaded, (state) => state.kind === 'connected');
    expect(handshakes.at(-1)?.protocols).toEqual(['vigil-ui', `vigil-token.${pageToken}`]);
    expect(window.location.hash).toBe('#/approvals');
  });

  it('keeps the route that follows the token in the fragment', async () => {
    window.sessionStorage.clear();
    const peer = await startPeer('accept');
    (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
      `${peer.page.href}#/timeline/%2Fw&token=${pageToken}`,
    );
    const client = connectVigil();
    clients.push(client);
    await waitForState(client, (state) => state.kind === 'connected');
    expect(window.location.hash).toBe('#/timeline/%2Fw');
  });

  it('a page opened without its token connects nowhere and says where the token is', async () => {
    window.sessionStorage.clear();
    handshakes.length = 0;
    const peer = await startPeer('accept');
    (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(peer.page.href);
    const client = connectVigil();
    clients.push(client);
    const state = await waitForState(client, (next) => next.kind === 'disconnected');
    expect(state.kind === 'disconnected' ? state.reason : '').toMatch(/no access token.*#token=.*serve\.json/);
    expect(handshakes).toEqual([]);
  });
});
