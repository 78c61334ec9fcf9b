import type { Readable, Writable } from 'node:stream';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { untilInputEnds } from './until-input-ends';

/** Where the bridge forwards to, and what it reports. */
export interface McpStdioBridgeOptions {
  /** The supervisor's `/mcp` URL, with `?cwd=` and `?agent=` already set. */
  readonly url: URL;
  /** The bridge's agent credential (never the UI's); it goes upstream only, never to the client. */
  readonly token: string;
  readonly stdin: Readable;
  readonly stdout: Writable;
  /** One line for the user (stderr): MCP clients show a server's stderr in their logs. */
  readonly report: (line: string) => void;
  /** Resolves when the bridge should stop (stdin ended, a signal); default: when stdin ends. */
  readonly stop?: Promise<void>;
}

/** Resolves once the stdio side has closed (the client went away) and the HTTP session was ended. */
export type BridgeClosed = Promise<void>;

/**
 * Relays MCP messages between a client that spawned `vigil mcp` (stdio) and the running
 * supervisor's `/mcp` endpoint (Streamable HTTP), unchanged in both directions: the client's
 * `initialize` (its name, its roots capability), the server's `roots/list` requests, every tool
 * call. So the session is the supervisor's own and shows up live in its UI. When the supervisor
 * cannot be reached, each request is answered with an error that says so.
 */
export async function runMcpStdioBridge(options: McpStdioBridgeOptions): BridgeClosed {
  const downstream: Transport = new StdioServerTransport(options.stdin, options.stdout);
  const upstream = new StreamableHTTPClientTransport(options.url, {
    requestInit: { headers: { authorization: `Bearer ${options.token}` } },
  });
  let lastReported = '';
  const reportOnce = (line: string): void => {
    if (line === lastReported) return;
    lastReported = line;
    options.report(line);
  };

  function failRequest(message: JSONRPCMessage, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    const status = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
    const isRefused = status === 401 || status === 403;
    reportOnce(`vigil mcp: ${isRefused ? 'Vigil refused this bridge' : 'cannot reach Vigil'} at ${options.url.origin}: ${reason}`);
    if (!isJSONRPCRequest(message)) return;
    void downstream.send({
      jsonrpc: '2.0',
      id: message.id,
      error: {
        code: -32603,
        message: isRefused
          ? `Vigil at ${options.url.origin} refused this bridge's agent credential (it was revoked?): restart this MCP server, which takes a fresh one.`
          : `Vigil is not reachable at ${options.url.origin} (${reason}). Start "vigil serve" again, then restart this MCP server.`,
      },
    });
  }

  downstream.onmessage = (message) => {
    upstream.send(message).catch((error: unknown) => failRequest(message, error));
  };
  upstream.onmessage = (message) => {
    void downstream.send(message);
  };
  upstream.onerror = (error) => reportOnce(`vigil mcp: ${error.message}`);
  downstream.onerror = (error) => reportOnce(`vigil mcp: ${error.message}`);

  const stop = options.stop ?? untilInputEnds(options.stdin);
  await upstream.start();
  await downstream.start();
  await stop;
  await downstream.close();
  // Ends the supervisor's session at once instead of waiting for it to expire.
  await upstream.terminateSession().catch(() => undefined);
  await upstream.close();
}
