/**
 * The agent gateway's public face (lint: vigil/public-face). The gateway itself and the stdio transport
 * and bridge are reached through `load…()`: they bring the MCP SDK, which a one-shot command never needs.
 */
export type { Gateway } from './create-gateway';
export { gatewayConfigSchema, type GatewayConfig } from './gateway-config';
export { maxMcpBodyBytes } from './mcp-limits';
export { readJsonBody } from './read-json-body';
export { runStdioSession, stdioShutdownBudgetMs } from './run-stdio-session';

/** The gateway (MCP and Vigil's JSON-RPC protocol over HTTP and WebSocket), loaded when a resident core starts it. */
export const loadGateway = () => import('./create-gateway');

/** `vigil mcp`'s stdio transport, loaded when the command runs. */
export const loadStdioTransport = () => import('./stdio-message-transport');

/** The stdio-to-HTTP bridge `vigil mcp` runs when a core is live. */
export const loadMcpStdioBridge = () => import('./mcp-stdio-bridge');
