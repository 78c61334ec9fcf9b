import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { isAppError } from '../../shared/errors';
import type { HttpRoute } from '../transport';
import { defaultMcpSessionIdleMs, type GatewayDependencies } from './gateway-dependencies';
import { createMcpAgentServer, type McpAgentServer } from './mcp-agent-server';
import { readCwdParameter } from './mcp-workspace';
import { maxMcpBodyBytes } from './mcp-limits';
import { readJsonBody } from './read-json-body';

interface McpHttpSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly agent: McpAgentServer;
  lastSeen: number;
  /** Requests not answered yet and open SSE streams: while any is open, the client is there. */
  openStreams: number;
  /** When it was marked disconnected (idle), if it is. */
  disconnectedAt: number | undefined;
}

/** How long a disconnected MCP session's connection is kept for a late request to revive it. */
const keepDisconnectedMs = 24 * 3_600_000;
/** The most disconnected MCP connections kept; the oldest go first (their sessions stay "disconnected"). */
const maxDisconnectedKept = 256;

/** The longest wait between two sweeps for quiet sessions. */
const maxSweepGapMs = 5_000;

/** The `/mcp` endpoint and the disposer that ends every MCP session. */
export interface McpHttpEndpoint {
  readonly route: HttpRoute;
  /** How many MCP sessions are live. */
  readonly sessionCount: () => number;
  dispose(): Promise<void>;
}

function sendJsonRpcError(response: ServerResponse, status: number, code: number, message: string): void {
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/**
 * A browser always sends Origin on cross-site POSTs; the page served by Vigil itself is the only
 * origin allowed (the server already checked that Host names it). A client without Origin is an
 * agent, which must still present its agent credential.
 */
function isForeignOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  try {
    const url = new URL(origin);
    return url.protocol !== 'http:' || url.host.toLowerCase() !== (request.headers.host ?? '').toLowerCase();
  } catch {
    return true;
  }
}

/** Whether an initialize request (or a batch holding one) declares the client's roots capability. */
function offersRoots(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some((message) => isInitializeRequest(message) && message.params.capabilities.roots !== undefined);
}

/**
 * MCP over Streamable HTTP at `/mcp`, stateful: `initialize` creates an MCP session (its id in
 * the `Mcp-Session-Id` header) bound to one Vigil session, so that the server can ask the client
 * for its roots and turns can be tracked. `?cwd=` gives the workspace to clients without roots;
 * `?agent=` overrides the client's name. A session with no request and no open stream for
 * `mcpSessionIdleMs` (`sessions.idleMinutes`) is disconnected: a client that exits without an
 * HTTP DELETE leaves no live ghost. Its connection is kept a while, and a later request on it
 * revives the session. An HTTP DELETE ends it.
 */
export function createMcpHttpEndpoint(deps: GatewayDependencies, tools: readonly Tool[]): McpHttpEndpoint {
  const endpoint: EndpointState = { deps, tools, sessions: new Map() };
  const { sessions } = endpoint;
  // Read at each sweep: config.json can change it while the core runs.
  const idleMsNow = (): number => deps.mcpSessionIdleMs?.() ?? defaultMcpSessionIdleMs;
  let isSweeping = true;
  let sweeper: NodeJS.Timeout | undefined;
  const scheduleSweep = (): void => {
    if (!isSweeping) return;
    // Often enough for the idle time in force now, and at least every few seconds so a shortened one applies at once.
    sweeper = setTimeout(
      () => {
        sweepSessions(endpoint, Date.now(), idleMsNow());
        scheduleSweep();
      },
      Math.max(100, Math.min(Math.round(idleMsNow() / 2), maxSweepGapMs)),
    );
    sweeper.unref();
  };
  scheduleSweep();

  return {
    route: {
      path: '/mcp',
      audience: 'agent',
      handleRequest: (request, response) => handleMcpRequest(endpoint, request, response),
    },
    sessionCount: () => sessions.size,
    dispose: async () => {
      isSweeping = false;
      clearTimeout(sweeper);
      const open = [...sessions.values()];
      sessions.clear();
      // Vigil is stopping, the clients are not: their sessions are recorded as disconnected, not ended.
      await Promise.all(open.map((session) => session.agent.shutdown()));
    },
  };
}

/** What the endpoint's steps share: its dependencies and the live MCP sessions by id. */
interface EndpointState {
  readonly deps: GatewayDependencies;
  readonly tools: readonly Tool[];
  readonly sessions: Map<string, McpHttpSession>;
}

/** Quiet sessions are marked disconnected; disconnected ones past the keep time or the cap are let go. */
function sweepSessions({ deps, sessions }: EndpointState, now: number, idleMs: number): void {
  const disconnected: [string, McpHttpSession][] = [];
  for (const [id, session] of sessions) {
    if (session.disconnectedAt !== undefined) {
      disconnected.push([id, session]);
      continue;
    }
    if (session.openStreams > 0 || now - session.lastSeen <= idleMs) continue;
    session.disconnectedAt = now;
    deps.logger.info('an MCP session went quiet: disconnected', {
      mcpSessionId: id,
      sessionId: session.agent.sessionId(),
    });
    void session.agent.disconnect(`no request and no open stream for ${formatMinutes(idleMs)} (sessions.idleMinutes)`);
  }
  disconnected.sort((a, b) => (a[1].disconnectedAt ?? 0) - (b[1].disconnectedAt ?? 0));
  disconnected.forEach(([id, session], index) => {
    if (
      now - (session.disconnectedAt ?? now) <= keepDisconnectedMs &&
      disconnected.length - index <= maxDisconnectedKept
    )
      return;
    sessions.delete(id);
    void session.agent.shutdown();
  });
}

async function handleMcpRequest(
  endpoint: EndpointState,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (isForeignOrigin(request)) {
    response.statusCode = 403;
    response.setHeader('Content-Type', 'text/plain; charset=utf-8');
    response.end("Forbidden origin: web pages may not drive Vigil's agent gateway.\n");
    return;
  }
  const url = new URL(request.url ?? '/mcp', 'http://vigil.invalid');
  const header = request.headers['mcp-session-id'];
  const mcpSessionId = Array.isArray(header) ? header[0] : header;
  if (mcpSessionId !== undefined) {
    const session = endpoint.sessions.get(mcpSessionId);
    if (session === undefined) {
      sendJsonRpcError(response, 404, -32001, 'Unknown or expired MCP session: initialize again.');
      return;
    }
    await attend(endpoint.deps, session, response);
    await session.transport.handleRequest(request, response);
    return;
  }
  if (request.method !== 'POST') {
    sendJsonRpcError(response, 400, -32000, 'No Mcp-Session-Id header: send initialize first (POST).');
    return;
  }
  const body = await readJsonBody(request, maxMcpBodyBytes);
  if (!body.ok) {
    sendJsonRpcError(response, body.status, body.status === 413 ? -32600 : -32700, body.message);
    return;
  }
  const messages: unknown[] = Array.isArray(body.value) ? body.value : [body.value];
  if (!messages.some((message) => isInitializeRequest(message))) {
    sendJsonRpcError(
      response,
      400,
      -32000,
      'No Mcp-Session-Id header: the first request of a session must be initialize.',
    );
    return;
  }
  await startSession(endpoint, request, response, url, body.value);
}

/** A request on a session: it is seen, counted open until answered, and revived when it was disconnected. */
async function attend(deps: GatewayDependencies, session: McpHttpSession, response: ServerResponse): Promise<void> {
  session.lastSeen = Date.now();
  session.openStreams += 1;
  // The server keeps half-open sockets (a client that sends and then shuts its side still gets
  // its answer), so a client that ends its side of a stream already answering (the SDK's close()
  // of its event stream) is gone: the stream is let go, or it would keep the session "open" forever.
  const socket = response.socket;
  const onClientEnd = (): void => {
    if (response.headersSent && !response.writableEnded) response.destroy();
  };
  socket?.once('end', onClientEnd);
  response.once('close', () => {
    socket?.off('end', onClientEnd);
    session.openStreams -= 1;
    session.lastSeen = Date.now();
  });
  if (session.disconnectedAt === undefined) return;
  session.disconnectedAt = undefined;
  try {
    await session.agent.revive();
  } catch (error) {
    deps.logger.warn('could not revive a disconnected MCP session', { sessionId: session.agent.sessionId(), error });
  }
}

/** An initialize request: a new MCP session bound to a new Vigil session, registered once the transport names it. */
async function startSession(
  { deps, tools, sessions }: EndpointState,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  body: unknown,
): Promise<void> {
  let cwd: string | undefined;
  try {
    cwd = readCwdParameter(url.searchParams.get('cwd'));
  } catch (error) {
    sendJsonRpcError(response, 400, -32602, isAppError(error) ? error.message : 'Invalid cwd parameter.');
    return;
  }
  const agentParameter = url.searchParams.get('agent');
  const agent = createMcpAgentServer(deps, tools, {
    cwd,
    agent: agentParameter === null || agentParameter === '' ? undefined : agentParameter,
  });
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    // Answers come as SSE streams only when the server may need to ask the client something
    // mid-call (roots/list); otherwise as plain JSON, which costs the client less per call.
    enableJsonResponse: !offersRoots(body),
    onsessioninitialized: (id) => {
      sessions.set(id, { transport, agent, lastSeen: Date.now(), openStreams: 0, disconnectedAt: undefined });
    },
    maxRequestBodySize: maxMcpBodyBytes,
  });
  transport.onclose = () => {
    if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
  };
  await agent.mcp.connect(transport);
  await transport.handleRequest(request, response, body);
  if (transport.sessionId === undefined) await agent.close();
}

function formatMinutes(ms: number): string {
  const minutes = ms / 60_000;
  return minutes >= 1 ? `${Math.round(minutes * 10) / 10} min` : `${Math.round(ms / 100) / 10} s`;
}
