import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { clientFrameSchema, maxFrameBytes, type ServerFrame } from '../../shared/contract/wire';
import { fail } from '../../shared/result';
import { uiSubprotocol } from '../../shared/ui-credential';
import { validationError } from '../../shared/validation';
import type { Disposer, EventHub } from '../lib';
import type { Logger } from '../logging';
import type { CallPeer, ContractRouter, HttpRoute, UpgradeCredential } from '../transport';
import { createHttpContractCall } from './http-contract-call';

/** The UI's contract over WebSocket, and the disposer that closes every socket. */
export interface WsContractEndpoint {
  readonly route: HttpRoute;
  readonly dispose: Disposer;
}

/** Options of the UI's WebSocket endpoint. */
export interface WsContractEndpointOptions {
  readonly path: string;
  readonly router: ContractRouter;
  readonly events: EventHub;
  readonly logger: Logger;
  readonly version: string;
}

function send(socket: WebSocket, frame: ServerFrame): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
}

/** The id of a frame that failed its schema, when it has a usable one, so the client can match it. */
function frameId(raw: unknown): number | null {
  if (typeof raw !== 'object' || raw === null || !('id' in raw)) return null;
  const { id } = raw;
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : null;
}

/**
 * Who is at the other end of a socket. The served page is the page's credential (only in the URL
 * `vigil serve` printed, never on disk) from a browser, which always sends an Origin (the server
 * let the upgrade in only with its own). serve.json's credential is a program's whatever Origin it
 * sends: any process that can read serve.json can also write an Origin header.
 */
function peerOf(request: IncomingMessage, credential: UpgradeCredential): CallPeer {
  return credential === 'page' && request.headers.origin !== undefined ? 'page' : 'program';
}

/**
 * Carries the contract over WebSocket (the UI's credential only: the server checked it before the
 * upgrade reached here): one `call` frame in, one `result` frame out with the same
 * id; every core event is broadcast. A frame that fails its schema gets an error result naming the
 * field and the connection stays up; a frame over `maxFrameBytes` closes the socket (1009).
 */
export function createWsContractEndpoint(options: WsContractEndpointOptions): WsContractEndpoint {
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: maxFrameBytes,
    clientTracking: true,
    // The page offers `vigil-ui` and `vigil-token.<token>`: select the first, never echo the credential.
    handleProtocols: (offered) => (offered.has(uiSubprotocol) ? uiSubprotocol : false),
  });

  const accept = (socket: WebSocket, request: IncomingMessage, credential: UpgradeCredential): void => {
    const clientId = randomUUID();
    const peer = peerOf(request, credential);
    send(socket, { type: 'hello', version: options.version });
    socket.on('message', (data, isBinary) => {
      void (async () => {
        if (isBinary) {
          send(socket, {
            type: 'result',
            id: null,
            result: fail({
              code: 'invalid_request',
              message: 'Binary frames are not part of the contract; send JSON text.',
            }),
          });
          return;
        }
        let raw: unknown;
        try {
          raw = JSON.parse(
            Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8'),
          );
        } catch {
          send(socket, {
            type: 'result',
            id: null,
            result: fail({ code: 'invalid_request', message: 'The frame is not valid JSON.' }),
          });
          return;
        }
        const parsed = clientFrameSchema.safeParse(raw);
        if (!parsed.success) {
          send(socket, {
            type: 'result',
            id: frameId(raw),
            result: fail(validationError('Invalid frame', parsed.error).toData()),
          });
          return;
        }
        const { id, channel, payload } = parsed.data;
        const result = await options.router.dispatch(channel, payload, { transport: 'websocket', clientId, peer });
        send(socket, { type: 'result', id, result });
      })().catch((error: unknown) => options.logger.error('WebSocket frame handling failed', { error }));
    });
    socket.on('error', (error) => options.logger.warn('WebSocket client error', { error }));
  };

  const stopForwarding = options.events.onAny((name, payload) => {
    const frame = JSON.stringify({ type: 'event', name, payload } satisfies ServerFrame);
    for (const client of server.clients) if (client.readyState === client.OPEN) client.send(frame);
  });

  return {
    route: {
      path: options.path,
      audience: 'ui',
      // One call per POST on the same path: how the CLI relays to a resident core.
      handleRequest: createHttpContractCall(options),
      handleUpgrade: (request, socket, head, credential) => {
        server.handleUpgrade(request, socket, head, (client) => accept(client, request, credential));
      },
    },
    dispose: async () => {
      stopForwarding();
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
