import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { toolDefinitions } from '../../shared/tools/tool-registry';
import type { HttpRoute } from '../transport';
import { createAgentRpcEndpoint } from './agent-rpc-endpoint';
import type { GatewayDependencies } from './gateway-dependencies';
import { createMcpAgentServer, type McpAgentServer, type McpConnectionContext } from './mcp-agent-server';
import { createMcpHttpEndpoint } from './mcp-http-route';
import { mcpToolList } from './mcp-tool-list';

/** The agent gateway: `/mcp` (MCP over Streamable HTTP) and `/agent` (Vigil's JSON-RPC over WebSocket). */
export interface Gateway {
  /** The routes a server mounts behind its token, Host and Origin checks. */
  readonly routes: readonly HttpRoute[];
  /** Serves MCP on another transport (`vigil mcp`'s stdio when no server runs): one connection, one session. */
  connectMcp(transport: Transport, context: McpConnectionContext): Promise<McpAgentServer>;
  /**
   * Ends every MCP session and agent connection; safe to call twice. A server must call it before
   * closing its HTTP server: upgraded WebSockets keep `server.close()` from finishing otherwise.
   */
  dispose(): Promise<void>;
}

/** Builds the gateway on the core's sessions and executor. */
export function createGateway(deps: GatewayDependencies): Gateway {
  const tools = mcpToolList(toolDefinitions);
  const mcp = createMcpHttpEndpoint(deps, tools);
  const agent = createAgentRpcEndpoint(deps);
  const direct = new Set<McpAgentServer>();
  let disposing: Promise<void> | undefined;
  return {
    routes: [mcp.route, agent.route],
    connectMcp: async (transport, context) => {
      const server = createMcpAgentServer(deps, tools, context);
      direct.add(server);
      const previous = transport.onclose;
      transport.onclose = () => {
        previous?.();
        direct.delete(server);
      };
      await server.mcp.connect(transport);
      return server;
    },
    dispose: () => {
      disposing ??= (async () => {
        await Promise.all([mcp.dispose(), agent.dispose(), ...[...direct].map((server) => server.close())]);
        direct.clear();
      })();
      return disposing;
    },
  };
}
