import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isEventName } from '../../shared/contract';
import { maxFrameBytes, type ServerFrame } from '../../shared/contract/wire';
import type { EventHub } from '../lib';
import { readJsonBody } from '../gateway';
import type { Logger } from '../logging';
import type { ContractRouter } from '../transport';

/** The header that tells a client it reached a Vigil core (and which contract transport). */
export const contractCallHeader = 'x-vigil-contract';

/** Options of the one-call-per-request transport of the contract. */
export interface HttpContractCallOptions {
  readonly router: ContractRouter;
  readonly events: EventHub;
  readonly logger: Logger;
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response.statusCode = status;
  // A Vigil core refused the request (it never reached a handler): the client says why, and may work in-process.
  response.setHeader(contractCallHeader, '1');
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.end(
    JSON.stringify({ ok: false, error: { code: status === 401 ? 'unauthorized' : 'invalid_request', message } }),
  );
}

/** The call of a request body: `{ channel, payload, events? }` (events: the names to stream while the call runs). */
function parseCall(
  value: unknown,
): { readonly channel: string; readonly payload: unknown; readonly events: ReadonlySet<string> } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { channel, payload, events } = value as { channel?: unknown; payload?: unknown; events?: unknown };
  if (typeof channel !== 'string' || channel.length === 0 || channel.length > 200) return undefined;
  const names = Array.isArray(events)
    ? events.filter((name): name is string => typeof name === 'string' && isEventName(name))
    : [];
  return { channel, payload, events: new Set(names) };
}

/**
 * The contract over plain HTTP, one call per request: `POST /ws` with `{ channel, payload, events }`
 * answers with newline-delimited frames, the events asked for while the call runs, then its result
 * (the same frames as the WebSocket carries). Headers go out before the call is dispatched, so a
 * client that got none knows the call never ran. This is how the CLI relays to a resident core: one
 * request, no WebSocket handshake, no client library. It takes the UI credential only as
 * `Authorization: Bearer`, which a web page cannot send to another origin without a CORS preflight Vigil never grants.
 */
export function createHttpContractCall(
  options: HttpContractCallOptions,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    if (request.method === 'GET' || request.method === 'HEAD') {
      // A plain GET is a browser or a client that forgot to upgrade: the same answer as every WebSocket route.
      refuse(
        response,
        426,
        'Upgrade required: /ws is a WebSocket endpoint (or POST one call as JSON { channel, payload }).',
      );
      return;
    }
    if (request.method !== 'POST') {
      response.setHeader('Allow', 'POST');
      refuse(response, 405, 'Use POST with a JSON body { channel, payload } (or a WebSocket upgrade).');
      return;
    }
    if (request.headers.authorization === undefined) {
      refuse(
        response,
        401,
        'Send the token as "Authorization: Bearer <token>"; the page cookie does not authorize calls over HTTP.',
      );
      return;
    }
    if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
      refuse(response, 415, 'Send the call as Content-Type: application/json.');
      return;
    }
    const body = await readJsonBody(request, maxFrameBytes);
    const call = body.ok ? parseCall(body.value) : undefined;
    if (call === undefined) {
      refuse(
        response,
        body.ok ? 400 : body.status,
        body.ok ? 'The body must be { "channel": "domain:verb", "payload": {…} }.' : body.message,
      );
      return;
    }
    response.writeHead(200, {
      'Content-Type': 'application/x-ndjson; charset=utf-8',
      'Cache-Control': 'no-store',
      [contractCallHeader]: '1',
    });
    response.flushHeaders();
    const write = (frame: ServerFrame): void => {
      if (!response.writableEnded && !response.destroyed) response.write(`${JSON.stringify(frame)}\n`);
    };
    const stop = options.events.onAny((name, payload) => {
      if (call.events.has(name)) write({ type: 'event', name, payload });
    });
    try {
      const result = await options.router.dispatch(call.channel, call.payload, {
        transport: 'http',
        clientId: randomUUID(),
      });
      write({ type: 'result', id: null, result });
    } catch (error) {
      options.logger.error('an HTTP contract call failed', { channel: call.channel, error });
    } finally {
      stop();
      response.end();
    }
  };
}
