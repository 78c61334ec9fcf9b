import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isPathInside } from '../lib';
import type { GatewayDependencies } from './gateway-dependencies';
import type { McpConnectionContext } from './mcp-agent-server';
import { pathsOfMcpRoots } from './mcp-workspace';

/** The session's roots from the client's `roots/list`: asked once, again after the client says they changed. */
export function createRootsUpdater(
  deps: GatewayDependencies,
  server: McpServer['server'],
  context: McpConnectionContext,
): {
  update(id: string, ask: () => Promise<{ roots: { uri: string }[] }>): Promise<void>;
  forget(): void;
} {
  let areRootsKnown = false;
  let rootsUpdate: Promise<void> | undefined;
  return {
    update: async (id, ask) => {
      if (areRootsKnown || server.getClientCapabilities()?.roots === undefined) return;
      rootsUpdate ??= (async () => {
        try {
          const roots = pathsOfMcpRoots((await ask()).roots);
          areRootsKnown = true;
          if (roots.length === 0) return;
          const cwd =
            context.cwd !== undefined && roots.some((root) => isPathInside(context.cwd ?? '', root))
              ? context.cwd
              : undefined;
          await deps.sessions.setRoots(id, roots, cwd);
        } catch (error) {
          deps.logger.warn('the MCP client did not answer roots/list; using the connection cwd', {
            sessionId: id,
            error,
          });
          areRootsKnown = true;
        } finally {
          rootsUpdate = undefined;
        }
      })();
      await rootsUpdate;
    },
    forget: () => {
      areRootsKnown = false;
    },
  };
}
