import { AppError } from '../../shared/errors';
import type {
  AgentMethodName,
  AgentMethodResult,
  ParsedAgentMethodParams,
} from '../../shared/agent-protocol/agent-methods';
import { refuseUnsafeRoots } from '../workspace';
import type { GatewayDependencies } from './gateway-dependencies';

/** What a method handler knows about the connection that called it. */
export interface AgentRpcCaller {
  /** Sessions opened (or re-opened) on this connection. */
  readonly attached: ReadonlySet<string>;
  attach(sessionId: string): void;
  detach(sessionId: string): void;
}

/** One handler per method of the agent protocol; a missing one is a type error. */
export type AgentRpcHandlers = {
  readonly [M in AgentMethodName]: (
    params: ParsedAgentMethodParams<M>,
    caller: AgentRpcCaller,
  ) => Promise<AgentMethodResult<M>>;
};

function requireAttached(caller: AgentRpcCaller, sessionId: string): string {
  if (!caller.attached.has(sessionId)) {
    throw new AppError(
      'invalid_request',
      `Session ${sessionId} is not open on this connection: call session.open with { "sessionId": "${sessionId}", … } first.`,
      { field: 'sessionId' },
    );
  }
  return sessionId;
}

/** The agent protocol's methods, on the session service and the executor. */
export function createAgentRpcHandlers(deps: GatewayDependencies): AgentRpcHandlers {
  const { sessions, executor } = deps;
  return {
    'session.open': async (params, caller) => {
      if (deps.rootRules !== undefined) refuseUnsafeRoots(params.roots, deps.rootRules);
      const session = await sessions.open({
        agent: params.agent,
        roots: params.roots,
        cwd: params.cwd,
        client: params.client,
        sessionId: params.sessionId,
      });
      caller.attach(session.id);
      return { session, history: await sessions.history(session.id) };
    },
    'turn.begin': async (params, caller) =>
      sessions.beginTurn(requireAttached(caller, params.sessionId), { userMessage: params.userMessage }),
    'message.append': async (params, caller) => {
      await sessions.appendMessage(requireAttached(caller, params.sessionId), { role: params.role, text: params.text });
      return {};
    },
    'tools.call': async (params, caller) => {
      const outcomes = await executor.execute(
        requireAttached(caller, params.sessionId),
        params.calls.map((call) => (call.callId === undefined ? { name: call.name, arguments: call.arguments } : call)),
        { concurrent: params.concurrent },
      );
      return {
        outcomes: outcomes.map((outcome) => ({
          ...outcome,
          checkpoints: [...outcome.checkpoints],
          checkpointProblems: [...outcome.checkpointProblems],
        })),
      };
    },
    'turn.end': async (params, caller) => {
      await sessions.endTurn(requireAttached(caller, params.sessionId));
      return {};
    },
    'session.history': (params, caller) => sessions.history(requireAttached(caller, params.sessionId)),
    'session.close': async (params, caller) => {
      const session = await sessions.close(requireAttached(caller, params.sessionId));
      caller.detach(params.sessionId);
      return { session };
    },
  };
}
