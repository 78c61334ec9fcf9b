import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AppErrorData } from '../../shared/errors';
import { uiUrl } from '../../shared/ui-credential';
import type { Logger } from '../logging/logger';
import type { HttpRoute } from '../transport/http-route';
import { allowedHosts, isAllowedHost, isAllowedOrigin } from './auth';
import { answerClientError, parseRequestTarget, refuseUpgrade } from './http-answers';
import { checkRouteAccess, type Credential, type CredentialAuthority } from './route-access';
import { setSecurityHeaders } from './security-headers';
import { serveStaticFile } from './static-files';

/** Options of Vigil's HTTP server. */
export interface HttpServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** The UI's credential (random per start). */
  readonly token: string;
  /** The agents' credentials. */
  readonly agentCredentials: CredentialAuthority['agents'];
  /** The built renderer (`out/renderer`); undefined serves no UI (an agent-only server). */
  readonly rendererDir: string | undefined;
  readonly routes: readonly HttpRoute[];
  readonly serveInfoPath: string;
  readonly logger: Logger;
  /** Told when a credential of the wrong kind was refused (an agent's on /ws): the attempt is logged, and may be shown. */
  readonly onCredentialRefused?: (refusal: { readonly path: string; readonly credential: Credential }) => void;
}

/** A listening server. */
export interface RunningHttpServer {
  readonly host: string;
  readonly port: number;
  /** The address without the credential. */
  readonly baseUrl: string;
  /** The address with the UI's credential in its fragment (`#token=`), to print once. */
  readonly url: string;
  close(): Promise<void>;
}

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function sendError(response: ServerResponse, status: number, error: AppErrorData): void {
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Cache-Control', 'no-store');
  if (status === 401) response.setHeader('WWW-Authenticate', 'Bearer realm="vigil"');
  response.end(JSON.stringify({ ok: false, error }));
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.statusCode = status;
  response.setHeader('Content-Type', 'text/plain; charset=utf-8');
  response.end(`${text}\n`);
}

/**
 * Starts the HTTP server that carries the UI and the gateway. Every request and upgrade must name
 * this server in its Host header. The page and its assets are served to anyone who reaches it: they
 * hold no data and no credential. Every route checks its credential: `/ws` takes only the UI's
 * (a bearer header, or the page's subprotocol), `/mcp` and `/agent` only an agent's; upgrades must
 * also come from no page or the server's own. No cookie is ever set or read.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const routes = new Map(options.routes.map((route) => [route.path, route]));
  let port = options.port;
  let hosts: ReadonlySet<string> = new Set();
  const authority: CredentialAuthority = { uiToken: options.token, agents: options.agentCredentials, serveInfoPath: options.serveInfoPath };

  async function admit(request: IncomingMessage, route: HttpRoute): Promise<{ readonly status: number; readonly error: AppErrorData } | undefined> {
    const access = await checkRouteAccess(request, route.audience, route.path, authority);
    if (access.isAllowed) return undefined;
    if (access.refused !== undefined) {
      const who = access.refused.kind === 'agent' ? `the agent credential "${access.refused.name}"` : "the UI's credential";
      options.logger.warn(`refused ${who} on ${route.path}`, { path: route.path, credential: access.refused, origin: request.headers.origin });
      options.onCredentialRefused?.({ path: route.path, credential: access.refused });
    }
    return access;
  }

  /** Answers a request to a route: its credential checked first; a WebSocket-only route says so (426). */
  async function handleRoute(request: IncomingMessage, response: ServerResponse, route: HttpRoute): Promise<void> {
    const refusal = await admit(request, route);
    if (refusal !== undefined) sendError(response, refusal.status, refusal.error);
    else if (route.handleRequest !== undefined) await route.handleRequest(request, response);
    else sendText(response, 426, `Upgrade required: ${route.path} is a WebSocket endpoint.`);
  }

  /** Serves the built renderer to anyone who reaches the server: it holds no data and no credential. */
  async function handleStatic(request: IncomingMessage, response: ServerResponse, pathname: string): Promise<void> {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || options.rendererDir === undefined) {
      sendText(response, 404, options.rendererDir === undefined ? 'Not found: this server serves no UI.' : 'Not found.');
      return;
    }
    const outcome = await serveStaticFile(options.rendererDir, pathname, request.method, response);
    if (outcome.kind === 'refused') {
      options.logger.warn('refused a static file that is not a plain file inside the served folder', { path: pathname, reason: outcome.reason });
      sendText(response, 403, `Refused: ${outcome.reason}; Vigil serves only plain files inside its UI folder.`);
    } else if (outcome.kind === 'missing') {
      sendText(response, 404, 'Not found.');
    }
  }

  async function handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    setSecurityHeaders(response, port);
    const url = parseRequestTarget(request.url);
    if (!isAllowedHost(request, hosts)) {
      sendText(response, 421, 'Misdirected request: this Vigil server only answers to its own address.');
    } else if (url === undefined) {
      sendText(response, 400, 'Bad request: the request target is not a path.');
    } else {
      // Browsers of older Vigil versions hold the credential in a cookie that every local server receives: drop it.
      if ((request.headers.cookie ?? '').includes(`vigil_token_${port}=`)) response.setHeader('Set-Cookie', `vigil_token_${port}=; Max-Age=0; Path=/`);
      const route = routes.get(url.pathname);
      await (route === undefined ? handleStatic(request, response, url.pathname) : handleRoute(request, response, route));
    }
  }

  const upgradedSockets = new Set<Duplex>();

  /** Why an upgrade is refused before its credential is looked at, if it is. */
  function upgradeObstacle(request: IncomingMessage, route: HttpRoute | undefined, url: URL | undefined): readonly [number, string] | undefined {
    if (!isAllowedHost(request, hosts)) return [421, 'Misdirected Request'];
    if (url === undefined) return [400, 'Bad Request'];
    if (route?.handleUpgrade === undefined) return [404, 'Not Found'];
    if (!isAllowedOrigin(request.headers.origin, hosts)) return [403, 'Forbidden Origin'];
    return undefined;
  }

  async function handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = parseRequestTarget(request.url);
    const route = url === undefined ? undefined : routes.get(url.pathname);
    const obstacle = upgradeObstacle(request, route, url);
    if (obstacle !== undefined || route?.handleUpgrade === undefined) {
      refuseUpgrade(socket, ...(obstacle ?? [404, 'Not Found']));
      return;
    }
    const refusal = await admit(request, route);
    if (refusal !== undefined) refuseUpgrade(socket, refusal.status, refusal.status === 401 ? 'Unauthorized' : 'Forbidden', refusal.error.message);
    // A client that closed its side cannot hold a WebSocket; answer instead of dropping it silently.
    else if (!socket.readable) refuseUpgrade(socket, 400, 'Bad Request', 'The client closed its side of the connection during the WebSocket handshake.');
    else route.handleUpgrade(request, socket, head);
  }

  const server: Server = createServer((request, response) => {
    handleRequest(request, response).catch((error: unknown) => {
      options.logger.error('HTTP request failed', { error, url: request.url });
      if (!response.headersSent) response.statusCode = 500;
      response.end();
    });
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgradedSockets.add(socket);
    socket.once('close', () => upgradedSockets.delete(socket));
    // A client that resets mid-handshake must not take the server down with an unhandled 'error'.
    socket.on('error', () => socket.destroy());
    handleUpgrade(request, socket, head).catch((error: unknown) => {
      options.logger.error('WebSocket upgrade failed', { error, url: request.url });
      socket.destroy();
    });
  });
  server.on('clientError', answerClientError);
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    refuseUpgrade(socket, 405, 'Method Not Allowed', 'Vigil is not a proxy: CONNECT is not supported.');
  });
  // A client that sends its request and then closes its side (`nc -N`, a fuzzer) still gets its answer.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;

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
    url: uiUrl(baseUrl, options.token),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        // Upgraded sockets (agents on /agent, the UI on /ws) are no longer the server's: end them too.
        for (const socket of upgradedSockets) socket.destroy();
      }),
  };
}
