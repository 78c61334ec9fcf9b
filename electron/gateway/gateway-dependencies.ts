import type { RootRules } from '../workspace';
import type { EventHub } from '../lib';
import type { ToolExecutor } from '../executor';
import type { Logger } from '../logging';
import type { SessionService } from '../sessions';

/** What the gateway needs from the core. */
export interface GatewayDependencies {
  readonly sessions: SessionService;
  readonly executor: ToolExecutor;
  readonly events: EventHub;
  readonly logger: Logger;
  readonly version: string;
  /** Without a `_meta["vigil/turn"]` mark, an MCP turn ends after this much quiet (default 30 s). Read at each use: config.json can change it. */
  readonly turnIdleGapMs?: () => number;
  /** An MCP session with no request and no open stream for this long is disconnected (`sessions.idleMinutes`, default 10 min). Read at each sweep. */
  readonly mcpSessionIdleMs?: () => number;
  /** How long a JSON-RPC agent's session stays connected after its connection drops, for it to re-attach (default 60 s). Read at each drop. */
  readonly agentDetachGraceMs?: () => number;
  /** What a session's roots are checked against when an agent opens one on /agent (home, Vigil's folder). */
  readonly rootRules?: RootRules;
}

/** The default quiet gap that ends an unmarked MCP turn. */
export const defaultTurnIdleGapMs = 30_000;

/** The default inactivity after which an abandoned MCP session is disconnected (`sessions.idleMinutes`). */
export const defaultMcpSessionIdleMs = 10 * 60_000;

/** The default time a dropped JSON-RPC agent has to re-attach before its session is closed. */
export const defaultAgentDetachGraceMs = 60_000;
