import { WebSocketServer, type RawData } from 'ws';
import { approvalsEvents } from '../../shared/contract/approvals-contract';
import { agentMethodNames, agentMethods, isAgentMethodName } from '../../shared/agent-protocol/agent-methods';
import {
  jsonRpcErrorCodes,
  jsonRpcRequestSchema,
  maxAgentFrameBytes,
  toJsonRpcError,
  type JsonRpcError,
  type JsonRpcId,
  type JsonRpcResponse,
} from '../../shared/agent-protocol/json-rpc';
import { toErrorData } from '../../shared/result';
import { validationError } from '../../shared/validation';
import type { HttpRoute } from '../transport';
import { createAgentRpcHandlers, type AgentRpcCaller, type AgentRpcHandlers } from './agent-rpc-handlers';
import {
  createAgentSessionConnections,
  type AgentConnection,
  type AgentSessionConnections,
} from './agent-session-connections';
import type { GatewayDependencies } from './gateway-dependencies';

/** The `/agent` endpoint and the disposer that closes every connection. */
export interface AgentRpcEndpoint {
  readonly route: HttpRoute;
  dispose(): Promise<void>;
}

function text(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

function idOf(raw: unknown): JsonRpcId | null {
  if (typeof raw !== 'object' || raw === null || !('id' in raw)) return null;
  const { id } = raw;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}

function errorResponse(id: JsonRpcId | null, error: JsonRpcError): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error };
}

/**
 * Vigil's agent protocol: JSON-RPC 2.0 over WebSocket at `/agent`. Every message is checked
 * against the envelope and the method's params schema; a failure is a JSON-RPC error naming the
 * field (`error.data.field`) and the connection stays up. Frames over `maxAgentFrameBytes` close
 * the socket (1009). Batches (arrays) are answered with arrays. Rewinds and approval decisions
 * are pushed to the connections that opened the session.
 */
export function createAgentRpcEndpoint(deps: GatewayDependencies): AgentRpcEndpoint {
  const server = new WebSocketServer({ noServer: true, maxPayload: maxAgentFrameBytes, perMessageDeflate: false });
  const handlers = createAgentRpcHandlers(deps);
  const connections = createAgentSessionConnections(deps);
  const answer: Answer = (raw, connection) => answerRequest(raw, connection, handlers, deps);

  server.on('connection', (socket) => {
    const connection = connections.connect(socket);
    socket.on('message', (data, isBinary) => {
      receiveFrame(data, isBinary, connection, answer).catch((error: unknown) =>
        deps.logger.error('agent frame handling failed', { error }),
      );
    });
    socket.on('close', () => connections.closed(connection));
    socket.on('error', (error) => deps.logger.warn('agent connection error', { error }));
  });

  const stopNotifications = forwardSessionEvents(deps, connections);

  return {
    route: {
      path: '/agent',
      audience: 'agent',
      handleUpgrade: (request, socket, head) => {
        server.handleUpgrade(request, socket, head, (client) => server.emit('connection', client, request));
      },
    },
    dispose: async () => {
      stopNotifications();
      connections.dispose();
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Answer = (raw: unknown, connection: AgentConnection) => Promise<JsonRpcResponse | undefined>;

/** One request's response (none for a notification): envelope, method and params checked, then the handler's result or error. */
async function answerRequest(
  raw: unknown,
  connection: AgentConnection,
  handlers: AgentRpcHandlers,
  deps: GatewayDependencies,
): Promise<JsonRpcResponse | undefined> {
  const envelope = jsonRpcRequestSchema.safeParse(raw);
  if (!envelope.success) {
    const error = validationError('Not a JSON-RPC 2.0 request', envelope.error);
    return errorResponse(idOf(raw), toJsonRpcError(error.toData(), jsonRpcErrorCodes.invalidRequest));
  }
  const { id, method, params } = envelope.data;
  const respond = (response: JsonRpcResponse): JsonRpcResponse | undefined => (id === undefined ? undefined : response);
  if (!isAgentMethodName(method)) {
    return respond(
      errorResponse(id ?? null, {
        code: jsonRpcErrorCodes.methodNotFound,
        message: `Unknown method "${method}". Methods: ${agentMethodNames.join(', ')}.`,
        data: { code: 'unknown_call', field: 'method' },
      }),
    );
  }
  const parsed = agentMethods[method].params.safeParse(params ?? {});
  if (!parsed.success) {
    return respond(
      errorResponse(id ?? null, toJsonRpcError(validationError(`Invalid params of ${method}`, parsed.error).toData())),
    );
  }
  try {
    const handler = handlers[method] as (params: unknown, caller: AgentRpcCaller) => Promise<unknown>;
    const result = await handler(parsed.data, connection);
    return respond({ jsonrpc: '2.0', id: id ?? null, result } as JsonRpcResponse);
  } catch (error) {
    const data = toErrorData(error);
    if (data.code === 'unexpected') deps.logger.error('agent method failed', { method, error });
    return respond(errorResponse(id ?? null, toJsonRpcError(data)));
  }
}

function frameError(code: number, message: string): JsonRpcResponse {
  return errorResponse(null, { code, message, data: { code: 'invalid_request' } });
}

/** One frame: a request or a batch, answered on the same socket; binary, unparsable and empty-batch frames get an error. */
async function receiveFrame(
  data: RawData,
  isBinary: boolean,
  connection: AgentConnection,
  answer: Answer,
): Promise<void> {
  const send = (message: unknown): void => {
    if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(JSON.stringify(message));
  };
  if (isBinary) {
    send(frameError(jsonRpcErrorCodes.invalidRequest, 'Binary frames are not part of the protocol; send JSON text.'));
    return;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text(data));
  } catch {
    send(frameError(jsonRpcErrorCodes.parseError, 'The frame is not valid JSON.'));
    return;
  }
  if (!Array.isArray(raw)) {
    const response = await answer(raw, connection);
    if (response !== undefined) send(response);
    return;
  }
  if (raw.length === 0) {
    send(frameError(jsonRpcErrorCodes.invalidRequest, 'An empty batch is not a request.'));
    return;
  }
  const responses = (await Promise.all(raw.map((item: unknown) => answer(item, connection)))).filter(
    (item) => item !== undefined,
  );
  if (responses.length > 0) send(responses);
}

/** Pushes rewinds and approval requests and decisions to the connections of their session; returns the disposer. */
function forwardSessionEvents(
  deps: GatewayDependencies,
  connections: Pick<AgentSessionConnections, 'notify'>,
): () => void {
  const { notify } = connections;
  const stopRewound = deps.sessions.onRewound((event) => {
    notify(event.sessionId, 'session.rewound', {
      sessionId: event.sessionId,
      rewind: event.rewind,
      history: event.history,
    });
  });
  const stopApprovals = deps.events.onAny((name, payload) => {
    // Matched by name, so the gateway does not depend on how the contract's index is assembled.
    const event: string = name;
    if (event === 'approvals:requested') {
      const parsed = approvalsEvents['approvals:requested'].payload.safeParse(payload);
      if (parsed.success)
        notify(parsed.data.approval.sessionId, 'approval.requested', {
          sessionId: parsed.data.approval.sessionId,
          ...parsed.data,
        });
    } else if (event === 'approvals:decided') {
      const parsed = approvalsEvents['approvals:decided'].payload.safeParse(payload);
      if (parsed.success)
        notify(parsed.data.approval.sessionId, 'approval.decided', {
          sessionId: parsed.data.approval.sessionId,
          ...parsed.data,
        });
    }
  });
  return () => {
    stopRewound();
    stopApprovals();
  };
}
