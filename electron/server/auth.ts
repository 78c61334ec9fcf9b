import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A fresh random token for one server start (256 bits, URL-safe). */
export function createToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The cookie that carries the token for the page. Cookies are shared by every port of a host,
 * so the name includes the port: two servers on one machine do not overwrite each other's cookie.
 */
export function tokenCookieName(port: number): string {
  return `vigil_token_${port}`;
}

/** Constant-time string comparison, so the token cannot be guessed byte by byte. */
export function isSameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Reads one cookie from a request's Cookie header. */
export function readCookie(request: IncomingMessage, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index === -1) continue;
    if (part.slice(0, index).trim() === name) return decodeURIComponent(part.slice(index + 1).trim());
  }
  return undefined;
}

/** The token a request presents: `Authorization: Bearer <token>` first, else the page's cookie. */
export function presentedToken(request: IncomingMessage, cookieName: string): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1];
  }
  return readCookie(request, cookieName);
}

/** Whether a request carries the server's token. */
export function hasValidToken(request: IncomingMessage, token: string, cookieName: string): boolean {
  const given = presentedToken(request, cookieName);
  return given !== undefined && isSameSecret(given, token);
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
 * (an agent), which must still present the token.
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
