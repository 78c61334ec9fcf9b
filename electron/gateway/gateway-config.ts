import { z } from 'zod';

/** The `gateway` section of $VIGIL_HOME/config.json: how agent connections are tracked. */
export const gatewayConfigSchema = z
  .object({
    /** Without a `_meta["vigil/turn"]` mark, an MCP turn ends after this much quiet. */
    turnIdleGapMs: z.number().int().min(100).max(24 * 60 * 60_000).default(30_000),
    /** An MCP session with no request and no open stream for this long is closed (the client re-initializes). */
    mcpSessionIdleMs: z.number().int().min(1_000).max(7 * 24 * 60 * 60_000).default(30 * 60_000),
    /** How long a JSON-RPC agent's session stays open after its connection drops, for it to re-attach. */
    agentDetachGraceMs: z.number().int().min(0).max(24 * 60 * 60_000).default(60_000),
  })
  .strict();

/** The gateway section, defaults applied. */
export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
