import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Where the bridge forwards to, and what it reports. */
export interface McpStdioBridgeOptions {
  /** The supervisor's `/mcp` URL, with `?cwd=` and `?agent=` already set. */
  readonly url: URL;
  /** The bridge's agent credential (never the UI's); it goes upstream only, never to the client. */
  readonly token: string;
  /** The client's side: `vigil mcp`'s stdio transport. */
  readonly downstream: Transport;
  /** One line for the user (stderr): MCP clients show a server's stderr in their logs. */
  readonly report: (line: string) => void;
}

/** How long the bridge waits for the supervisor to end its session (HTTP DELETE) when the client goes away. */
const terminateBudgetMs = 1_000;

/**
 * Relays MCP messages between a client that spawned `vigil mcp` (stdio) and the running
 * supervisor's `/mcp` endpoint (Streamable HTTP), unchanged in both directions: the client's
 * `initialize` (its name, its roots capability), the server's `roots/list` requests, every tool
 * call. So the session is the supervisor's own and shows up live in its UI. When the supervisor
 * cannot be reached, each request is answered with an error that says so. Resolves, once both
 * sides are started, with the function that ends the relay: it ends the supervisor's session
 * (an HTTP DELETE, given at most a second) and closes both sides.
 */
export async function startMcpStdioBridge(options: McpStdioBridgeOptions): Promise<() => Promise<void>> {
  const { downstream } = options;
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
    reportOnce(
      `vigil mcp: ${isRefused ? 'Vigil refused this bridge' : 'cannot reach Vigil'} at ${options.url.origin}: ${reason}`,
    );
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

  await upstream.start();
  await downstream.start();
  return async () => {
    await downstream.close();
    // Ends the supervisor's session at once instead of leaving it to go idle; a supervisor that does
    // not answer in time is left to notice on its own (the session then reads "disconnected").
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, terminateBudgetMs);
      timer.unref();
      upstream
        .terminateSession()
        .then(resolve, resolve)
        .finally(() => clearTimeout(timer));
    });
    await upstream.close();
  };
}
