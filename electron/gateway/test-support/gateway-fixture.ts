import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Approval, ApprovalAnswer } from '../../../shared/contract/approvals-contract';
import { silentLogger } from '../../logging/logger';
import { startServe, type RunningServe } from '../../server/start-serve';
import { agentCredentialFor } from '../../test-support/agent-credential';
import { nextEvent } from '../../test-support/next-event';
import { makeTempDir } from '../../test-support/temp-dir';

/** A running `vigil serve` on port 0 with its own VIGIL_HOME, and a workspace folder. */
export interface ServeFixture {
  readonly running: RunningServe;
  readonly home: string;
  readonly workspace: string;
  /** Scratch space beside the workspace (outside it). */
  readonly scratch: string;
  readonly baseUrl: string;
  /** The UI's credential (serve.json's): it reaches /ws only. */
  readonly uiToken: string;
  /** The page's credential (only in the printed URL): it reaches /ws, and approves from a browser. */
  readonly pageToken: string;
  /** An agent credential ("test-agent"): it reaches /mcp and /agent only. */
  readonly agentToken: string;
  close(): Promise<void>;
}

/** Starts a real server in-process; `config` is written to $VIGIL_HOME/config.json first. */
export async function startServeFixture(config?: Record<string, unknown>): Promise<ServeFixture> {
  const temp = await makeTempDir('vigil-gateway-');
  const home = path.join(temp.dir, 'home');
  const workspace = path.join(temp.dir, 'workspace');
  await mkdir(home, { recursive: true });
  await mkdir(workspace, { recursive: true });
  if (config !== undefined) await writeFile(path.join(home, 'config.json'), JSON.stringify(config));
  const running = await startServe({
    home,
    host: '127.0.0.1',
    port: 0,
    allowRemote: false,
    rendererDir: undefined,
    logger: silentLogger,
  });
  return {
    running,
    home,
    workspace,
    scratch: temp.dir,
    baseUrl: running.http.baseUrl,
    uiToken: running.token,
    pageToken: running.pageToken,
    agentToken: await agentCredentialFor(home),
    close: async () => {
      // startServe closes its HTTP server before the core; upgraded /agent sockets would hold it open.
      await running.core.gateway.dispose();
      await running.close();
      await temp.remove();
    },
  };
}

/** Options of a test MCP client. */
export interface McpClientOptions {
  readonly name?: string;
  /** Directories the client reports through roots/list; without them it offers no roots capability. */
  readonly roots?: readonly string[];
  readonly query?: Readonly<Record<string, string>>;
  readonly token?: string;
}

/** The SDK's real Client over Streamable HTTP, connected to the fixture's /mcp. */
export async function connectMcpClient(
  fixture: ServeFixture,
  options: McpClientOptions = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const url = new URL('/mcp', fixture.baseUrl);
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { authorization: `Bearer ${options.token ?? fixture.agentToken}` } },
  });
  const client = new Client(
    { name: options.name ?? 'test-client', version: '1.0.0' },
    { capabilities: options.roots === undefined ? {} : { roots: { listChanged: true } } },
  );
  if (options.roots !== undefined) {
    const roots = options.roots;
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: roots.map((root) => ({ uri: pathToFileURL(root).href, name: path.basename(root) })),
    }));
  }
  await client.connect(transport);
  return { client, transport };
}

/** Answers a held call as a person on the page would (the UI's `approvals:decide`); throws when the core refuses the answer. */
export async function decideAsPerson(fixture: ServeFixture, id: string, decision: ApprovalAnswer): Promise<void> {
  const answer = await fixture.running.core.router.dispatch(
    'approvals:decide',
    { id, decision },
    { transport: 'websocket', clientId: 'test', peer: 'page' },
  );
  if (!answer.ok)
    throw new Error(`the core refused the answer ${decision} to approval ${id}: ${JSON.stringify(answer)}`);
}

/**
 * Sends `call` from an MCP client, waits for the approval it is held for, answers it as a person on
 * the page would, and returns the call's result; throws if the call ran without being held.
 */
export async function callHeldForPerson(
  fixture: ServeFixture,
  client: Client,
  call: { readonly name: string; readonly arguments: Record<string, unknown> },
  answer: ApprovalAnswer,
): Promise<{ readonly result: CallToolResult; readonly approval: Approval }> {
  const requested = nextEvent(fixture.running.core.events, 'approvals:requested');
  const pending = client.callTool(call) as Promise<CallToolResult>;
  const first = await Promise.race([requested.then(() => 'held' as const), pending.then(() => 'ran' as const)]);
  if (first === 'ran') throw new Error(`${call.name} ran without being held for a person`);
  const { approval } = await requested;
  await decideAsPerson(fixture, approval.id, answer);
  return { result: await pending, approval };
}
