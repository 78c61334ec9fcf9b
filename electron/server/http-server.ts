import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { uiUrl } from '../../shared/ui-credential';
import type { Logger } from '../logging';
import type { HttpRoute } from '../transport';
import { allowedHosts } from './auth';
import { answerClientError, refuseUpgrade } from './http-answers';
import { dispatchRequest, dispatchUpgrade, type DispatchContext } from './http-dispatch';
import type { Credential, CredentialAuthority } from './route-access';

/** Options of Vigil's HTTP server. */
export interface HttpServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** The CLI's credential of the UI's audience (random per start, in serve.json). */
  readonly token: string;
  /** The page's credential (random per start, only in `url`'s fragment). */
  readonly pageToken: string;
  /** The agents' credentials. */
  readonly agentCredentials: CredentialAuthority['agents'];
  /** The built renderer (`out/renderer`); undefined serves no UI (an agent-only server). */
  readonly rendererDir: string | undefined;
  readonly routes: readonly HttpRoute[];
  readonly serveInfoPath: string;
  readonly logger: Logger;
  /** Told when a credential of the wrong kind was refused (an agent's on /ws): the attempt is logged, and may be shown. */
  readonly onCredentialRefused?: (refusal: { readonly path: string; readonly credential: Credential }) => void;
  /** Told how many connections are open each time one opens or closes (a background core's idle clock). */
  readonly onConnections?: (open: number) => void;
}

/** A listening server. */
export interface RunningHttpServer {
  readonly host: string;
  readonly port: number;
  /** The address without the credential. */
  readonly baseUrl: string;
  /** The address with the page's credential in its fragment (`#token=`), to print once and never store. */
  readonly url: string;
  /**
   * Stops listening and ends every connection. With `drainMs`, calls already being answered get
   * up to that long to finish first (a background core giving way to `vigil serve`).
   */
  close(options?: { readonly drainMs?: number }): Promise<void>;
}

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Creates the Node server around the dispatch: every failure answered, nothing thrown past a handler. */
function createVigilServer(context: DispatchContext, upgradedSockets: Set<Duplex>): Server {
  const server: Server = createServer((request, response) => {
    dispatchRequest(context, request, response).catch((error: unknown) => {
      context.logger.error('HTTP request failed', { error, url: request.url });
      if (!response.headersSent) response.statusCode = 500;
      response.end();
    });
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgradedSockets.add(socket);
    socket.once('close', () => upgradedSockets.delete(socket));
    // A client that resets mid-handshake must not take the server down with an unhandled 'error'.
    socket.on('error', () => socket.destroy());
    dispatchUpgrade(context, request, socket, head).catch((error: unknown) => {
      context.logger.error('WebSocket upgrade failed', { error, url: request.url });
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
  return server;
}

/**
 * Starts the HTTP server that carries the UI and the gateway. Every request and upgrade must name
 * this server in its Host header. The page and its assets are served to anyone who reaches it: they
 * hold no data and no credential. Every route checks its credential: `/ws` takes only the UI's
 * (a bearer header, or the page's subprotocol), `/mcp` and `/agent` only an agent's; upgrades must
 * also come from no page or the server's own. No cookie is ever set or read.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const context: DispatchContext = {
    routes: new Map(options.routes.map((route) => [route.path, route])),
    authority: {
      uiToken: options.token,
      pageToken: options.pageToken,
      agents: options.agentCredentials,
      serveInfoPath: options.serveInfoPath,
    },
    rendererDir: options.rendererDir,
    logger: options.logger,
    onCredentialRefused: options.onCredentialRefused,
    port: options.port,
    hosts: new Set(),
  };
  const upgradedSockets = new Set<Duplex>();
  const server = createVigilServer(context, upgradedSockets);
  const onConnections = options.onConnections;
  if (onConnections !== undefined) {
    let open = 0;
    server.on('connection', (socket: Duplex) => {
      open += 1;
      onConnections(open);
      socket.once('close', () => {
        open -= 1;
        onConnections(open);
      });
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  context.port = (server.address() as AddressInfo).port;
  context.hosts = allowedHosts(options.host, context.port);
  const baseUrl = `http://${urlHost(options.host)}:${context.port}/`;

  return {
    host: options.host,
    port: context.port,
    baseUrl,
    url: uiUrl(baseUrl, options.pageToken),
    close: (closeOptions = {}) =>
      new Promise<void>((resolve) => {
        const drainMs = closeOptions.drainMs ?? 0;
        // With a drain, calls being answered get that long before their connections are cut.
        const drainTimer = drainMs > 0 ? setTimeout(() => server.closeAllConnections(), drainMs) : undefined;
        server.close(() => {
          clearTimeout(drainTimer);
          resolve();
        });
        // Upgraded sockets (agents on /agent, the UI on /ws) are no longer the server's: end them too.
        for (const socket of upgradedSockets) socket.destroy();
        if (drainTimer === undefined) server.closeAllConnections();
        else server.closeIdleConnections();
      }),
  };
}
