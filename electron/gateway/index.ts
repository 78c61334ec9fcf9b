/**
 * The agent gateway's public face (lint: vigil/public-face). The gateway itself is reached through
 * `loadGateway()`, and `vigil mcp`'s stdio side through lazy.ts: they bring the MCP SDK and ws, which a
 * one-shot command never needs.
 */
export type { Gateway } from './create-gateway';
export { gatewayConfigSchema, type GatewayConfig } from './gateway-config';
export { readJsonBody } from './read-json-body';

/** The gateway (MCP and Vigil's JSON-RPC protocol over HTTP and WebSocket), loaded when a resident core starts it. */
export const loadGateway = () => import('./create-gateway');
