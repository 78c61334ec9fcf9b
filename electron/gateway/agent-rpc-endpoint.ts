import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { approvalsEvents } from '../../shared/contract/approvals-contract';
import { agentMethodNames, agentMethods, isAgentMethodName } from '../../shared/agent-protocol/agent-methods';
import type { AgentNotificationName, AgentNotificationParams } from '../../shared/agent-protocol/agent-notifications';
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
import type { HttpRoute } from '../transport/http-route';
import { createAgentRpcHandlers, type AgentRpcCaller } from './agent-rpc-handlers';
import { defaultAgentDetachGraceMs, type GatewayDependencies } from './gateway-dependencies';

/** The `/agent` endpoint and the disposer that closes every connection. */
export interface AgentRpcEndpoint {
  readonly route: HttpRoute;
  dispose(): Promise<void>;
}

interface Connection extends AgentRpcCaller {
  readonly socket: WebSocket;
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
  const bySession = new Map<string, Set<Connection>>();
  const graceTimers = new Map<string, NodeJS.Timeout>();
  const graceMs = (): number => deps.agentDetachGraceMs?.() ?? defaultAgentDetachGraceMs;

  function notify<N extends AgentNotificationName>(
    sessionId: string,
    method: N,
    params: AgentNotificationParams<N>,
  ): void {
    const connections = bySession.get(sessionId);
    if (connections === undefined) return;
    const frame = JSON.stringify({ jsonrpc: '2.0', method, params });
    for (const connection of connections)
      if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(frame);
  }

  /** The agent's connection dropped and it did not come back in the grace time: its session is disconnected, not ended. */
  function disconnectAbandoned(sessionId: string, waitedMs: number): void {
    graceTimers.delete(sessionId);
    if ((bySession.get(sessionId)?.size ?? 0) > 0) return;
    bySession.delete(sessionId);
    deps.logger.info('an agent dropped its connection and did not come back: disconnected', { sessionId });
    deps.sessions
      .disconnect(sessionId, `its connection dropped and it did not re-attach within ${Math.round(waitedMs / 1000)} s`)
      .catch((error: unknown) =>
        deps.logger.warn('could not mark an abandoned session disconnected', { sessionId, error }),
      );
  }

  async function answer(raw: unknown, connection: Connection): Promise<JsonRpcResponse | undefined> {
    const envelope = jsonRpcRequestSchema.safeParse(raw);
    if (!envelope.success) {
      const error = validationError('Not a JSON-RPC 2.0 request', envelope.error);
      return errorResponse(idOf(raw), toJsonRpcError(error.toData(), jsonRpcErrorCodes.invalidRequest));
    }
    const { id, method, params } = envelope.data;
    const respond = (response: JsonRpcResponse): JsonRpcResponse | undefined =>
      id === undefined ? undefined : response;
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
        errorResponse(
          id ?? null,
          toJsonRpcError(validationError(`Invalid params of ${method}`, parsed.error).toData()),
        ),
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

  async function receive(data: RawData, isBinary: boolean, connection: Connection): Promise<void> {
    const send = (message: unknown): void => {
      if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(JSON.stringify(message));
    };
    if (isBinary) {
      send(
        errorResponse(null, {
          code: jsonRpcErrorCodes.invalidRequest,
          message: 'Binary frames are not part of the protocol; send JSON text.',
          data: { code: 'invalid_request' },
        }),
      );
      return;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text(data));
    } catch {
      send(
        errorResponse(null, {
          code: jsonRpcErrorCodes.parseError,
          message: 'The frame is not valid JSON.',
          data: { code: 'invalid_request' },
        }),
      );
      return;
    }
    if (!Array.isArray(raw)) {
      const response = await answer(raw, connection);
      if (response !== undefined) send(response);
      return;
    }
    if (raw.length === 0) {
      send(
        errorResponse(null, {
          code: jsonRpcErrorCodes.invalidRequest,
          message: 'An empty batch is not a request.',
          data: { code: 'invalid_request' },
        }),
      );
      return;
    }
    const responses = (await Promise.all(raw.map((item: unknown) => answer(item, connection)))).filter(
      (item) => item !== undefined,
    );
    if (responses.length > 0) send(responses);
  }

  server.on('connection', (socket) => {
    const attached = new Set<string>();
    const connection: Connection = {
      socket,
      attached,
      attach: (sessionId) => {
        attached.add(sessionId);
        let set = bySession.get(sessionId);
        if (set === undefined) {
          set = new Set();
          bySession.set(sessionId, set);
        }
        set.add(connection);
        clearTimeout(graceTimers.get(sessionId));
        graceTimers.delete(sessionId);
      },
      detach: (sessionId) => {
        attached.delete(sessionId);
        bySession.get(sessionId)?.delete(connection);
      },
    };
    socket.on('message', (data, isBinary) => {
      receive(data, isBinary, connection).catch((error: unknown) =>
        deps.logger.error('agent frame handling failed', { error }),
      );
    });
    socket.on('close', () => {
      for (const sessionId of attached) {
        bySession.get(sessionId)?.delete(connection);
        if ((bySession.get(sessionId)?.size ?? 0) > 0 || graceTimers.has(sessionId)) continue;
        const waitMs = graceMs();
        const timer = setTimeout(() => disconnectAbandoned(sessionId, waitMs), waitMs);
        timer.unref();
        graceTimers.set(sessionId, timer);
      }
    });
    socket.on('error', (error) => deps.logger.warn('agent connection error', { error }));
  });

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

  return {
    route: {
      path: '/agent',
      audience: 'agent',
      handleUpgrade: (request, socket, head) => {
        server.handleUpgrade(request, socket, head, (client) => server.emit('connection', client, request));
      },
    },
    dispose: async () => {
      stopRewound();
      stopApprovals();
      for (const timer of graceTimers.values()) clearTimeout(timer);
      graceTimers.clear();
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
