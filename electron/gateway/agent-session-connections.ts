import type { WebSocket } from 'ws';
import type { AgentNotificationName, AgentNotificationParams } from '../../shared/agent-protocol/agent-notifications';
import type { AgentRpcCaller } from './agent-rpc-handlers';
import { defaultAgentDetachGraceMs, type GatewayDependencies } from './gateway-dependencies';

/** One agent's WebSocket and the sessions it opened. */
export interface AgentConnection extends AgentRpcCaller {
  readonly socket: WebSocket;
}

/** Which connections opened each session: notifications go to them, and a session whose last one drops is disconnected after a grace time. */
export interface AgentSessionConnections {
  /** The caller of a new socket, registered under each session it opens. */
  connect(socket: WebSocket): AgentConnection;
  /** The socket closed: its sessions wait the grace time for a re-attach. */
  closed(connection: AgentConnection): void;
  notify<N extends AgentNotificationName>(sessionId: string, method: N, params: AgentNotificationParams<N>): void;
  /** Cancels the grace timers still running. */
  dispose(): void;
}

/** The `/agent` endpoint's registry of connections by session. */
export function createAgentSessionConnections(deps: GatewayDependencies): AgentSessionConnections {
  const bySession = new Map<string, Set<AgentConnection>>();
  const graceTimers = new Map<string, NodeJS.Timeout>();
  const graceMs = (): number => deps.agentDetachGraceMs?.() ?? defaultAgentDetachGraceMs;

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

  function connect(socket: WebSocket): AgentConnection {
    const attached = new Set<string>();
    const connection: AgentConnection = {
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
    return connection;
  }

  function closed(connection: AgentConnection): void {
    for (const sessionId of connection.attached) {
      bySession.get(sessionId)?.delete(connection);
      if ((bySession.get(sessionId)?.size ?? 0) > 0 || graceTimers.has(sessionId)) continue;
      const waitMs = graceMs();
      const timer = setTimeout(() => disconnectAbandoned(sessionId, waitMs), waitMs);
      timer.unref();
      graceTimers.set(sessionId, timer);
    }
  }

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

  return {
    connect,
    closed,
    notify,
    dispose: () => {
      for (const timer of graceTimers.values()) clearTimeout(timer);
      graceTimers.clear();
    },
  };
}
