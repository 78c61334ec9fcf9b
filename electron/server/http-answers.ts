import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * The URL of a request target in origin form (`/path?query`), or undefined when it is anything
 * else (an absolute URL, `*`, garbage). Never throws: a request that cannot be read gets a 400.
 */
export function parseRequestTarget(target: string | undefined): URL | undefined {
  if (target === undefined || !target.startsWith('/')) return undefined;
  try {
    // Prefixing (rather than resolving against a base) keeps `//host/x` a path instead of a host.
    return new URL(`http://vigil.invalid${target}`);
  } catch {
    return undefined;
  }
}

/** Answers a WebSocket upgrade with a plain HTTP refusal and closes the socket. */
export function refuseUpgrade(socket: Duplex, status: number, reason: string, detail = reason): void {
  if (socket.destroyed) return;
  const body = `${detail.replace(/[\r\n]+/g, ' ')}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** The status Node's HTTP parser errors deserve: too large headers 431, a slow client 408, anything else 400. */
function statusOf(error: NodeJS.ErrnoException): string {
  if (error.code === 'HPE_HEADER_OVERFLOW') return '431 Request Header Fields Too Large';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return '408 Request Timeout';
  return '400 Bad Request';
}

/**
 * Answers a request Node's HTTP parser could not read (bad syntax, huge headers) with a 4xx
 * instead of dropping the connection silently; a client that already went away is just closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // Node's own rule: answer only before anything was written (else a response is already under way).
  const bytesWritten = (socket as Partial<Socket>).bytesWritten ?? 0;
  if (error.code === 'ECONNRESET' || !socket.writable || bytesWritten > 0) {
    socket.destroy();
    return;
  }
  socket.end(`HTTP/1.1 ${statusOf(error)}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
