import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';

/** The `gateway` section of $VIGIL_HOME/config.json: how agent connections are tracked (session lifetime: the `sessions` section). */
export const gatewayConfigSchema = lazySchema(() =>
  z
    .object({
      /** Without a `_meta["vigil/turn"]` mark, an MCP turn ends after this much quiet. */
      turnIdleGapMs: z
        .number()
        .int()
        .min(100)
        .max(24 * 60 * 60_000)
        .default(30_000),
      /** How long a JSON-RPC agent's session stays connected after its connection drops, for it to re-attach; then it reads "disconnected". */
      agentDetachGraceMs: z
        .number()
        .int()
        .min(0)
        .max(24 * 60 * 60_000)
        .default(60_000),
    })
    .strict(),
);

/** The gateway section, defaults applied. */
export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
