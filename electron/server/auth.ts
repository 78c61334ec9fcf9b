import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { tokenFromSubprotocols } from '../../shared/ui-credential';

/** A fresh random token for one server start (256 bits, URL-safe). */
export function createToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time string comparison, so the token cannot be guessed byte by byte. */
export function isSameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The bearer token of an `Authorization: Bearer <token>` header; undefined when there is none or it is malformed. */
export function bearerToken(request: IncomingMessage): string | undefined {
  const authorization = request.headers.authorization;
  if (typeof authorization !== 'string') return undefined;
  const match = /^Bearer +([^\s]+) *$/i.exec(authorization);
  return match?.[1];
}

/** The subprotocols a WebSocket upgrade offers (`Sec-WebSocket-Protocol`), trimmed; never throws. */
export function offeredSubprotocols(request: IncomingMessage): readonly string[] {
  const header = request.headers['sec-websocket-protocol'];
  if (typeof header !== 'string') return [];
  return header
    .split(',')
    .map((protocol) => protocol.trim())
    .filter((protocol) => protocol !== '');
}

/**
 * The credential a request presents: `Authorization: Bearer` (the CLI, scripts, agents) or, on a
 * WebSocket upgrade, the page's `vigil-token.<token>` subprotocol. Cookies are never read: a
 * cookie set for 127.0.0.1 reaches every server on every port of that host.
 */
export function presentedToken(request: IncomingMessage): string | undefined {
  return bearerToken(request) ?? tokenFromSubprotocols(offeredSubprotocols(request));
}

/** The `host:port` spellings under which this server may be addressed. */
export function allowedHosts(boundHost: string, port: number): ReadonlySet<string> {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]']);
  names.add(boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost);
  return new Set([...names].map((name) => `${name}:${port}`));
}

/**
 * Whether the Host header names this server. Refusing other hosts defeats DNS rebinding: a page
 * on evil.example whose name resolves to 127.0.0.1 sends `Host: evil.example`.
 */
export function isAllowedHost(request: IncomingMessage, hosts: ReadonlySet<string>): boolean {
  const host = request.headers.host;
  return host !== undefined && hosts.has(host.toLowerCase());
}

/**
 * Whether a WebSocket upgrade's Origin is the server's own page. A browser always sends Origin on
 * upgrades, so a foreign page cannot drive Vigil; a missing Origin means a non-browser client
 * (an agent, the CLI), which must still present a credential.
 */
export function isAllowedOrigin(origin: string | undefined, hosts: ReadonlySet<string>): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.protocol === 'http:' && hosts.has(url.host.toLowerCase());
}

/** Whether an address is a loopback address (the only kind Vigil binds without --allow-remote). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(?:\.\d{1,3}){3}$/.test(bare);
}
