import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * An endpoint the core adds to the HTTP server (the UI's `/ws`, the gateway's `/mcp` and `/agent`).
 * The server has already checked the token, the Host header and (for upgrades) the Origin before
 * a route sees a request.
 */
export interface HttpRoute {
  /** The exact path, such as `/mcp`. */
  readonly path: string;
  /** Handles a plain HTTP request to the path. */
  readonly handleRequest?: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;
  /** Handles a WebSocket upgrade to the path. */
  readonly handleUpgrade?: (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
}
