import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
  type CallToolRequest,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { AppError, type AppErrorData } from '../../shared/errors';
import { toErrorData } from '../../shared/result';
import type { ToolCallOutcome } from '../executor';
import { defaultTurnIdleGapMs, type GatewayDependencies } from './gateway-dependencies';
import { formatToolValue } from './format-tool-value';
import { McpTurnTracker } from './mcp-turn-tracker';
import { createRootsUpdater } from './mcp-roots-updater';
import { noWorkspaceError } from './mcp-workspace';
import { readTurnMark } from './turn-mark';

/** What Vigil knows about an MCP connection before the client says anything. */
export interface McpConnectionContext {
  /** The `?cwd=` of the URL (or `vigil mcp --cwd`): the workspace when the client offers no roots. */
  readonly cwd: string | undefined;
  /** Overrides the agent name the client gives in `clientInfo` (`?agent=`, `vigil mcp --agent`). */
  readonly agent: string | undefined;
}

/** One MCP connection's server, bound to one Vigil session. */
export interface McpAgentServer {
  readonly mcp: McpServer;
  /** The Vigil session, once the client has initialized. */
  readonly sessionId: () => string | undefined;
  /** Closes the connection and ends its session ("ended": the client said goodbye, or its stdin closed). */
  close(): Promise<void>;
  /** Marks its session disconnected (the client went quiet); the connection stays, so a later request can revive it. */
  disconnect(reason: string): Promise<void>;
  /** A request arrived: a disconnected session is connected again. */
  revive(): Promise<void>;
  /** Closes the connection without ending the session (Vigil is stopping; the registry records it as disconnected). */
  shutdown(): Promise<void>;
}

/** How long a client may take to answer `roots/list`. */
const rootsTimeoutMs = 10_000;

/** The `_meta` key under which a tool result carries Vigil's record of the call. */
export const callMetaKey = 'vigil/call';

function errorResult(error: AppErrorData, outcome?: ToolCallOutcome): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: error.message }],
    _meta: { [callMetaKey]: outcome === undefined ? { error } : describeOutcome(outcome) },
  };
}

function describeOutcome(outcome: ToolCallOutcome): Record<string, unknown> {
  return {
    callId: outcome.callId,
    turn: outcome.turn,
    decision: outcome.decision,
    // Part of the MCP result the agent reads: no `reason` key without a reason.
    ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
    checkpoints: outcome.checkpoints,
    ...(outcome.checkpointProblems.length === 0 ? {} : { checkpointProblems: outcome.checkpointProblems }),
    ...(outcome.collisions === undefined ? {} : { collisions: outcome.collisions }),
    ...(outcome.result.ok ? {} : { error: outcome.result.error }),
  };
}

/**
 * Builds the MCP server of one connection. Tools are listed from the shared schemas; every call
 * goes through the executor (policy, checkpoints, session log) with the client's raw arguments,
 * so a dropped required argument is an error naming it (seed 004), returned as an `isError`
 * tool result. The Vigil session opens when the client initializes (agent name from
 * `clientInfo`); its roots come from the client's `roots/list`, else from the connection's cwd.
 */
export function createMcpAgentServer(
  deps: GatewayDependencies,
  tools: readonly Tool[],
  context: McpConnectionContext,
): McpAgentServer {
  const mcp = newMcpServer(deps);
  const { server } = mcp;
  const roots = createRootsUpdater(deps, server, context);
  let sessionId: string | undefined;
  let tracker: McpTurnTracker | undefined;
  let opening: Promise<string> | undefined;
  let isClosed = false;
  let isEnded = false;
  let isShutDown = false;

  function openSession(): Promise<string> {
    opening ??= (async () => {
      const opened = await openVigilSession(deps, server, context);
      sessionId = opened.id;
      tracker = opened.tracker;
      if (isClosed) await endSession();
      return opened.id;
    })();
    return opening;
  }

  async function endSession(): Promise<void> {
    tracker?.dispose();
    if (sessionId === undefined || isEnded || isShutDown) return;
    isEnded = true;
    try {
      await deps.sessions.close(sessionId);
    } catch (error) {
      deps.logger.debug('MCP session was already closed', { sessionId, error });
    }
  }

  server.oninitialized = () => {
    openSession().catch((error: unknown) => deps.logger.error('could not open the MCP session', { error }));
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => roots.forget());
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    let id: string;
    try {
      id = await openSession();
      await roots.update(id, () =>
        extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema, { timeout: rootsTimeoutMs }),
      );
      if (deps.sessions.get(id).roots.length === 0) throw noWorkspaceError();
    } catch (error) {
      return errorResult(toErrorData(error));
    }
    return callTool(deps, id, tracker, request.params);
  });
  server.onclose = () => {
    if (isClosed) return;
    isClosed = true;
    void endSession();
  };

  return {
    mcp,
    sessionId: () => sessionId,
    close: async () => {
      await mcp.close();
      isClosed = true;
      await endSession();
    },
    disconnect: (reason) => markDisconnected(deps, sessionId, isEnded, reason),
    revive: () => reconnectIfDisconnected(deps, sessionId, isEnded),
    shutdown: async () => {
      isShutDown = true;
      tracker?.dispose();
      await mcp.close();
      isClosed = true;
    },
  };
}

/** The client went quiet: its session (if open and not ended) is marked disconnected. */
async function markDisconnected(
  deps: GatewayDependencies,
  sessionId: string | undefined,
  isEnded: boolean,
  reason: string,
): Promise<void> {
  if (sessionId === undefined || isEnded) return;
  try {
    await deps.sessions.disconnect(sessionId, reason);
  } catch (error) {
    deps.logger.warn('could not mark an MCP session disconnected', { sessionId, error });
  }
}

async function reconnectIfDisconnected(
  deps: GatewayDependencies,
  sessionId: string | undefined,
  isEnded: boolean,
): Promise<void> {
  if (sessionId === undefined || isEnded || deps.sessions.get(sessionId).status !== 'disconnected') return;
  await deps.sessions.reconnect(sessionId);
}

function newMcpServer(deps: GatewayDependencies): McpServer {
  const mcp = new McpServer(
    { name: 'vigil', version: deps.version },
    {
      instructions:
        'Vigil supervises your file work: every write is atomic and checkpointed, so it can be undone. ' +
        `Mark turns with _meta["vigil/turn"] = { "id": "<turn id>", "userMessage": "<what the user asked>" } on tools/call.`,
    },
  );
  // Declared on the protocol server, not through McpServer's options (which would install McpServer's
  // own tool handlers): Vigil's handlers pass the raw arguments to the executor, the one validator.
  mcp.server.registerCapabilities({ tools: { listChanged: false } });
  return mcp;
}

/** Opens the connection's Vigil session (agent name from `clientInfo` unless overridden) and its turn tracker. */
async function openVigilSession(
  deps: GatewayDependencies,
  server: McpServer['server'],
  context: McpConnectionContext,
): Promise<{ readonly id: string; readonly tracker: McpTurnTracker }> {
  const clientInfo = server.getClientVersion();
  const agent = context.agent ?? clientInfo?.name ?? 'mcp-client';
  const summary = await deps.sessions.open({
    agent,
    roots: context.cwd === undefined ? [] : [context.cwd],
    cwd: context.cwd,
    client: clientInfo && `${clientInfo.name} ${clientInfo.version} (MCP)`,
  });
  const tracker = new McpTurnTracker(
    deps.sessions,
    summary.id,
    () => deps.turnIdleGapMs?.() ?? defaultTurnIdleGapMs,
    deps.logger,
  );
  deps.logger.info('MCP session opened', { sessionId: summary.id, agent });
  return { id: summary.id, tracker };
}

/** One tool call inside the caller's turn, through the executor; failures are `isError` results. */
async function callTool(
  deps: GatewayDependencies,
  sessionId: string,
  tracker: McpTurnTracker | undefined,
  params: CallToolRequest['params'],
): Promise<CallToolResult> {
  if (tracker === undefined)
    return errorResult(new AppError('unexpected', 'The MCP session has no turn tracker.').toData());
  try {
    await tracker.enter(readTurnMark(params._meta));
  } catch (error) {
    return errorResult(toErrorData(error));
  }
  try {
    // MCP makes `arguments` optional (tools without parameters); the tool's schema still
    // requires its fields, so `{}` is refused naming each missing one.
    const [outcome] = await deps.executor.execute(
      sessionId,
      [{ name: params.name, arguments: params.arguments ?? {} }],
      {
        concurrent: true,
      },
    );
    if (outcome === undefined)
      return errorResult(new AppError('unexpected', 'The executor returned no outcome.').toData());
    if (!outcome.result.ok) return errorResult(outcome.result.error, outcome);
    const { value } = outcome.result;
    return {
      content: [{ type: 'text', text: formatToolValue(value) }, ...withoutCheckpointNote(outcome)],
      ...(isPlainObject(value) ? { structuredContent: value } : {}),
      _meta: { [callMetaKey]: describeOutcome(outcome) },
    };
  } catch (error) {
    deps.logger.warn('MCP tool call failed', { sessionId, tool: params.name, error });
    return errorResult(toErrorData(error));
  } finally {
    tracker.leave();
  }
}

/** A call that ran with a failed checkpoint says so in what the agent reads, not only in `_meta`. */
function withoutCheckpointNote(outcome: ToolCallOutcome): { type: 'text'; text: string }[] {
  if (outcome.checkpointProblems.length === 0) return [];
  return [{ type: 'text', text: `No checkpoint was taken before this call: ${outcome.checkpointProblems.join(' ')}` }];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
