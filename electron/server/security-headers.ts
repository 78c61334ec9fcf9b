import type { ServerResponse } from 'node:http';

/**
 * The Content-Security-Policy of the served UI: only the page's own scripts and styles, WebSocket
 * connections to this server only, no framing, no plugins, no forms, no base-uri tricks.
 */
export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port} ws://[::1]:${port}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** Headers every response carries. */
export function setSecurityHeaders(response: ServerResponse, port: number): void {
  response.setHeader('Content-Security-Policy', contentSecurityPolicy(port));
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}
