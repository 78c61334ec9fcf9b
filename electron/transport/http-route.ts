import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Who may use a route: `ui`, the UI's credential (the served page, the user's own CLI: approvals,
 * restore, rewind, config); `agent`, an agent credential (`/mcp`, `/agent`). Neither reaches the other's routes.
 */
export type RouteAudience = 'ui' | 'agent';

/**
 * Which credential let an upgrade in: the page's (printed URL), the CLI's (serve.json), or an
 * agent's. A route uses it to tell the served page from a program holding serve.json.
 */
export type UpgradeCredential = 'page' | 'cli' | 'agent';

/**
 * An endpoint the core adds to the HTTP server (the UI's `/ws`, the gateway's `/mcp` and `/agent`).
 * The server has already checked the Host header, the credential (of the route's audience) and,
 * for upgrades, the Origin before a route sees a request.
 */
export interface HttpRoute {
  /** The exact path, such as `/mcp`. */
  readonly path: string;
  /** Which credential the route takes. */
  readonly audience: RouteAudience;
  /** Handles a plain HTTP request to the path. */
  readonly handleRequest?: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;
  /** Handles a WebSocket upgrade to the path. */
  readonly handleUpgrade?: (
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    credential: UpgradeCredential,
  ) => void;
}
