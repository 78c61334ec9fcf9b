import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../logging/logger';
import type { HttpRoute } from '../transport/http-route';
import { allowedHosts, hasValidToken, isAllowedHost, isAllowedOrigin, isSameSecret, tokenCookieName } from './auth';
import { setSecurityHeaders } from './security-headers';
import { serveStaticFile } from './static-files';
import { unauthorizedPage } from './unauthorized-page';

/** Options of Vigil's HTTP server. */
export interface HttpServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly token: string;
  /** The built renderer (`out/renderer`); undefined serves no UI (an agent-only server). */
  readonly rendererDir: string | undefined;
  readonly routes: readonly HttpRoute[];
  readonly serveInfoPath: string;
  readonly logger: Logger;
}

/** A listening server. */
export interface RunningHttpServer {
  readonly host: string;
  readonly port: number;
  /** The address without the token. */
  readonly baseUrl: string;
  /** The address with the token, to print once. */
  readonly url: string;
  close(): Promise<void>;
}

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${reason}\n`);
}

/**
 * Starts the HTTP server that carries the UI and the gateway. Every request and upgrade must name
 * this server in its Host header and carry the token; upgrades must also come from the server's
 * own origin. `?token=` on a URL is exchanged for an HttpOnly SameSite=Strict cookie and a redirect
 * to the clean URL.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const routes = new Map(options.routes.map((route) => [route.path, route]));
  let port = options.port;
  let hosts: ReadonlySet<string> = new Set();
  const cookieName = (): string => tokenCookieName(port);

  function sendUnauthorized(request: IncomingMessage, response: ServerResponse): void {
    response.statusCode = 401;
    response.setHeader('WWW-Authenticate', 'Bearer realm="vigil"');
    response.setHeader('Cache-Control', 'no-store');
    if ((request.headers.accept ?? '').includes('text/html')) {
      response.setHeader('Content-Type', 'text/html; charset=utf-8');
      response.end(unauthorizedPage(options.serveInfoPath));
    } else {
      response.setHeader('Content-Type', 'application/json; charset=utf-8');
      response.end(
        JSON.stringify({
          ok: false,
          error: {
            code: 'unauthorized',
            message: `Missing or wrong token. Send "Authorization: Bearer <token>"; the token is in ${options.serveInfoPath}.`,
          },
        }),
      );
    }
  }

  async function handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    setSecurityHeaders(response, port);
    if (!isAllowedHost(request, hosts)) {
      response.statusCode = 421;
      response.end('Misdirected request: this Vigil server only answers to its own address.\n');
      return;
    }
    const url = new URL(request.url ?? '/', 'http://vigil.invalid');
    const queryToken = url.searchParams.get('token');
    if (queryToken !== null) {
      if (!isSameSecret(queryToken, options.token)) {
        sendUnauthorized(request, response);
        return;
      }
      url.searchParams.delete('token');
      response.statusCode = 303;
      response.setHeader(
        'Set-Cookie',
        `${cookieName()}=${encodeURIComponent(options.token)}; HttpOnly; SameSite=Strict; Path=/`,
      );
      response.setHeader('Location', `${url.pathname}${url.search}`);
      response.setHeader('Cache-Control', 'no-store');
      response.end();
      return;
    }
    if (!hasValidToken(request, options.token, cookieName())) {
      sendUnauthorized(request, response);
      return;
    }
    const route = routes.get(url.pathname);
    if (route?.handleRequest) {
      await route.handleRequest(request, response);
      return;
    }
    if ((request.method === 'GET' || request.method === 'HEAD') && options.rendererDir !== undefined) {
      if (await serveStaticFile(options.rendererDir, url.pathname, response)) return;
    }
    response.statusCode = 404;
    response.setHeader('Content-Type', 'text/plain; charset=utf-8');
    response.end('Not found.\n');
  }

  const upgradedSockets = new Set<Duplex>();

  function handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    upgradedSockets.add(socket);
    socket.once('close', () => upgradedSockets.delete(socket));
    const url = new URL(request.url ?? '/', 'http://vigil.invalid');
    const route = routes.get(url.pathname);
    if (!isAllowedHost(request, hosts)) { refuseUpgrade(socket, 421, 'Misdirected Request'); return; }
    if (!hasValidToken(request, options.token, cookieName())) { refuseUpgrade(socket, 401, 'Unauthorized'); return; }
    if (!isAllowedOrigin(request.headers.origin, hosts)) { refuseUpgrade(socket, 403, 'Forbidden Origin'); return; }
    if (route?.handleUpgrade === undefined) { refuseUpgrade(socket, 404, 'Not Found'); return; }
    route.handleUpgrade(request, socket, head);
  }

  const server: Server = createServer((request, response) => {
    handleRequest(request, response).catch((error: unknown) => {
      options.logger.error('HTTP request failed', { error, url: request.url });
      if (!response.headersSent) response.statusCode = 500;
      response.end();
    });
  });
  server.on('upgrade', handleUpgrade);
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(options.host, port);
  const baseUrl = `http://${urlHost(options.host)}:${port}/`;

  return {
    host: options.host,
    port,
    baseUrl,
    url: `${baseUrl}?token=${options.token}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        // Upgraded sockets (agents on /agent, the UI on /ws) are no longer the server's: end them too.
        for (const socket of upgradedSockets) socket.destroy();
      }),
  };
}
