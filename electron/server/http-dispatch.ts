import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AppErrorData } from '../../shared/errors';
import type { Logger } from '../logging';
import type { HttpRoute, UpgradeCredential } from '../transport';
import { isAllowedHost, isAllowedOrigin } from './auth';
import { parseRequestTarget, refuseUpgrade } from './http-answers';
import { checkRouteAccess, type Credential, type CredentialAuthority } from './route-access';
import { setSecurityHeaders } from './security-headers';
import { serveStaticFile } from './static-files';

/** What the server's handlers work with; `port` and `hosts` are known once it listens. */
export interface DispatchContext {
  readonly routes: ReadonlyMap<string, HttpRoute>;
  readonly authority: CredentialAuthority;
  readonly rendererDir: string | undefined;
  readonly logger: Logger;
  readonly onCredentialRefused:
    ((refusal: { readonly path: string; readonly credential: Credential }) => void) | undefined;
  port: number;
  hosts: ReadonlySet<string>;
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

/** Checks a request's credential against the route's audience; a credential of the wrong kind is logged and reported. */
async function admit(
  context: DispatchContext,
  request: IncomingMessage,
  route: HttpRoute,
): Promise<{ readonly status: number; readonly error: AppErrorData } | { readonly credential: Credential }> {
  const access = await checkRouteAccess(request, route.audience, route.path, context.authority);
  if (access.isAllowed) return { credential: access.credential };
  if (access.refused !== undefined) {
    const who =
      access.refused.kind === 'agent' ? `the agent credential "${access.refused.name}"` : "the UI's credential";
    context.logger.warn(`refused ${who} on ${route.path}`, {
      path: route.path,
      credential: access.refused,
      origin: request.headers.origin,
    });
    context.onCredentialRefused?.({ path: route.path, credential: access.refused });
  }
  return access;
}

/** Answers a request to a route: its credential checked first; a WebSocket-only route says so (426). */
async function handleRoute(
  context: DispatchContext,
  request: IncomingMessage,
  response: ServerResponse,
  route: HttpRoute,
): Promise<void> {
  const admission = await admit(context, request, route);
  if ('error' in admission) sendError(response, admission.status, admission.error);
  else if (route.handleRequest !== undefined) await route.handleRequest(request, response);
  else sendText(response, 426, `Upgrade required: ${route.path} is a WebSocket endpoint.`);
}

/** Serves the built renderer to anyone who reaches the server: it holds no data and no credential. */
async function handleStatic(
  context: DispatchContext,
  request: IncomingMessage,
  response: ServerResponse,
  pathname: string,
): Promise<void> {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || context.rendererDir === undefined) {
    sendText(response, 404, context.rendererDir === undefined ? 'Not found: this server serves no UI.' : 'Not found.');
    return;
  }
  const outcome = await serveStaticFile(context.rendererDir, pathname, request.method, response);
  if (outcome.kind === 'refused') {
    context.logger.warn('refused a static file that is not a plain file inside the served folder', {
      path: pathname,
      reason: outcome.reason,
    });
    sendText(response, 403, `Refused: ${outcome.reason}; Vigil serves only plain files inside its UI folder.`);
  } else if (outcome.kind === 'missing') {
    sendText(response, 404, 'Not found.');
  }
}

/** Answers one plain HTTP request: Host check, a readable target, then a route (credential checked) or a static file. */
export async function dispatchRequest(
  context: DispatchContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  setSecurityHeaders(response, context.port);
  const url = parseRequestTarget(request.url);
  if (!isAllowedHost(request, context.hosts)) {
    sendText(response, 421, 'Misdirected request: this Vigil server only answers to its own address.');
  } else if (url === undefined) {
    sendText(response, 400, 'Bad request: the request target is not a path.');
  } else {
    // Browsers of older Vigil versions hold the credential in a cookie that every local server receives: drop it.
    const legacyCookie = `vigil_token_${context.port}`;
    if ((request.headers.cookie ?? '').includes(`${legacyCookie}=`))
      response.setHeader('Set-Cookie', `${legacyCookie}=; Max-Age=0; Path=/`);
    const route = context.routes.get(url.pathname);
    await (route === undefined
      ? handleStatic(context, request, response, url.pathname)
      : handleRoute(context, request, response, route));
  }
}

/** Why an upgrade is refused before its credential is looked at, if it is. */
function upgradeObstacle(
  context: DispatchContext,
  request: IncomingMessage,
  route: HttpRoute | undefined,
  url: URL | undefined,
): readonly [number, string] | undefined {
  if (!isAllowedHost(request, context.hosts)) return [421, 'Misdirected Request'];
  if (url === undefined) return [400, 'Bad Request'];
  if (route?.handleUpgrade === undefined) return [404, 'Not Found'];
  if (!isAllowedOrigin(request.headers.origin, context.hosts)) return [403, 'Forbidden Origin'];
  return undefined;
}

function upgradeCredential(credential: Credential): UpgradeCredential {
  return credential.kind === 'agent' ? 'agent' : credential.holder;
}

/** Answers one WebSocket upgrade: Host, target, route, Origin, then the route's credential; only then the route takes the socket. */
export async function dispatchUpgrade(
  context: DispatchContext,
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): Promise<void> {
  const url = parseRequestTarget(request.url);
  const route = url === undefined ? undefined : context.routes.get(url.pathname);
  const obstacle = upgradeObstacle(context, request, route, url);
  if (obstacle !== undefined || route?.handleUpgrade === undefined) {
    refuseUpgrade(socket, ...(obstacle ?? [404, 'Not Found']));
    return;
  }
  const admission = await admit(context, request, route);
  if ('error' in admission)
    refuseUpgrade(
      socket,
      admission.status,
      admission.status === 401 ? 'Unauthorized' : 'Forbidden',
      admission.error.message,
    );
  // A client that closed its side cannot hold a WebSocket; answer instead of dropping it silently.
  else if (!socket.readable)
    refuseUpgrade(
      socket,
      400,
      'Bad Request',
      'The client closed its side of the connection during the WebSocket handshake.',
    );
  else route.handleUpgrade(request, socket, head, upgradeCredential(admission.credential));
}
