import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { VigilAgentClient } from '../agent-client/vigil-agent-client';
import type { Core } from '../electron/core';
import { silentLogger } from '../electron/logging';
import { startServe } from '../electron/server';
import { formatMs, formatRatio, summarize, type BenchArea, type BenchTable } from './harness';
import { agentCredentialFor } from '../electron/test-support/agent-credential';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vigilEntry = path.join(root, 'electron/cli/vigil.ts');
const content = `${'x'.repeat(1023)}\n`;

/** One agent's loop: `calls` sequential 1 KB writes over a few files, all in one turn (so checkpoints dedup). */
type Agent = (calls: number, record: (ms: number) => void) => Promise<void>;

/** A transport under test: makes one connected agent per session, in its own workspace. */
interface Transport {
  readonly name: string;
  readonly open: (
    workspace: string,
    index: number,
  ) => Promise<{ readonly agent: Agent; readonly close: () => Promise<void> }>;
}

async function timed(record: (ms: number) => void, body: () => Promise<unknown>): Promise<void> {
  const start = performance.now();
  await body();
  record(performance.now() - start);
}

function mcpAgent(client: Client, turn: string): Agent {
  return async (calls, record) => {
    for (let call = 0; call < calls; call += 1) {
      await timed(record, async () => {
        const result = await client.callTool({
          name: 'write_file',
          arguments: { path: `f${call % 8}.txt`, content },
          _meta: { 'vigil/turn': turn },
        });
        if (result.isError === true) throw new Error(JSON.stringify(result.content));
      });
    }
  };
}

/** The baseline: the executor called in the same process, no transport at all. */
function inProcessTransport(core: Core): Transport {
  return {
    name: 'executor called in-process (baseline)',
    open: async (workspace, index) => {
      const { id } = await core.sessions.open({ agent: `bench-direct-${index}`, roots: [workspace] });
      await core.sessions.beginTurn(id, { userMessage: 'bench' });
      return {
        agent: async (calls, record) => {
          for (let call = 0; call < calls; call += 1) {
            await timed(record, async () => {
              const [outcome] = await core.executor.execute(
                id,
                [{ name: 'write_file', arguments: { path: `f${call % 8}.txt`, content } }],
                { concurrent: false },
              );
              if (outcome?.result.ok !== true) throw new Error(JSON.stringify(outcome?.result));
            });
          }
        },
        close: async () => {
          await core.sessions.close(id);
        },
      };
    },
  };
}

/** Vigil's own agent client: JSON-RPC over the `/agent` WebSocket. */
function rpcTransport(baseUrl: string, token: string): Transport {
  return {
    name: 'JSON-RPC over WebSocket (/agent)',
    open: async (workspace, index) => {
      const client = await VigilAgentClient.connect({ url: baseUrl, token, reconnect: false });
      const session = await client.openSession({ agent: `bench-rpc-${index}`, roots: [workspace] });
      await session.beginTurn('bench');
      return {
        agent: async (calls, record) => {
          for (let call = 0; call < calls; call += 1) {
            await timed(record, async () => {
              const [outcome] = await session.callTools([
                { name: 'write_file', arguments: { path: `f${call % 8}.txt`, content } },
              ]);
              if (outcome?.result.ok !== true) throw new Error(JSON.stringify(outcome?.result));
            });
          }
        },
        close: async () => {
          await session.close();
          await client.close();
        },
      };
    },
  };
}

/** An MCP client talking Streamable HTTP to `/mcp` directly. */
function mcpHttpTransport(baseUrl: string, token: string): Transport {
  return {
    name: 'MCP over Streamable HTTP (/mcp)',
    open: async (workspace, index) => {
      const url = new URL('/mcp', baseUrl);
      url.searchParams.set('cwd', workspace);
      const transport = new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      });
      const client = new Client({ name: `bench-http-${index}`, version: '1' });
      await client.connect(transport);
      return {
        agent: mcpAgent(client, 'bench'),
        close: async () => {
          await transport.terminateSession();
          await client.close();
        },
      };
    },
  };
}

/** An MCP client talking stdio to a `vigil mcp` child, which relays to `/mcp`. */
function mcpStdioTransport(home: string): Transport {
  return {
    name: 'MCP over stdio (`vigil mcp` relaying to /mcp)',
    open: async (workspace, index) => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', vigilEntry, 'mcp', '--cwd', workspace],
        cwd: root,
        env: { ...(process.env as Record<string, string>), VIGIL_HOME: home },
        stderr: 'ignore',
      });
      const client = new Client({ name: `bench-stdio-${index}`, version: '1' });
      await client.connect(transport);
      return { agent: mcpAgent(client, 'bench'), close: () => client.close() };
    },
  };
}

/** The transports under test, the baseline first. */
function transports(core: Core, baseUrl: string, token: string, home: string): Transport[] {
  return [
    inProcessTransport(core),
    rpcTransport(baseUrl, token),
    mcpHttpTransport(baseUrl, token),
    mcpStdioTransport(home),
  ];
}

/** Runs `sessions` agents at once; returns calls per second and every call's latency. */
async function load(
  open: Transport['open'],
  scratch: string,
  label: string,
  sessions: number,
  callsEach: number,
): Promise<{ rate: number; samples: number[] }> {
  const workspaces = await Promise.all(
    Array.from({ length: sessions }, async (_, index) => {
      const workspace = path.join(scratch, `${label}-${sessions}-${index}`);
      await mkdir(workspace, { recursive: true });
      await writeFile(path.join(workspace, 'README.md'), '# bench\n');
      return workspace;
    }),
  );
  // Opened one by one (untimed): sixteen `vigil mcp` children compiling TypeScript at once can take
  // longer than the MCP client's initialize timeout on a busy two-core machine.
  const agents: Array<Awaited<ReturnType<Transport['open']>>> = [];
  for (const [index, workspace] of workspaces.entries()) agents.push(await open(workspace, index));
  const samples: number[] = [];
  const start = performance.now();
  await Promise.all(agents.map(({ agent }) => agent(callsEach, (ms) => samples.push(ms))));
  const elapsed = performance.now() - start;
  await Promise.all(agents.map(({ close }) => close()));
  return { rate: (sessions * callsEach) / (elapsed / 1000), samples };
}

/** Tool calls per second and latency through each transport, against the executor called in-process. */
export const run: BenchArea = async (context) => {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'vigil-bench-gateway-'));
  const home = path.join(scratch, 'home');
  const repetitions = context.isQuick ? 1 : 3;
  const callsEach = (sessions: number): number => (context.isQuick ? 5 : sessions === 1 ? 150 : 20);
  const rows: string[][] = [];
  const server = await startServe({
    home,
    host: '127.0.0.1',
    port: 0,
    allowRemote: false,
    rendererDir: undefined,
    logger: silentLogger,
  });
  try {
    const baselines = new Map<number, number>();
    // Agents connect with an agent credential, as "vigil connect" gives them; the UI's is refused on /mcp and /agent.
    const agentToken = await agentCredentialFor(home, 'bench');
    for (const transport of transports(server.core, server.http.baseUrl, agentToken, home)) {
      const label = transport.name.replace(/\W+/g, '-').slice(0, 24);
      context.log(`${transport.name}: warm-up`);
      await load(transport.open, scratch, `${label}-warm`, 1, 5);
      for (const sessions of [1, 16]) {
        context.log(`${transport.name}, ${sessions} session(s) × ${repetitions} run(s)`);
        const rates: number[] = [];
        const samples: number[] = [];
        for (let repetition = 0; repetition < repetitions; repetition += 1) {
          const result = await load(transport.open, scratch, `${label}-${repetition}`, sessions, callsEach(sessions));
          rates.push(result.rate);
          samples.push(...result.samples);
        }
        const timing = summarize(samples);
        if (!baselines.has(sessions)) baselines.set(sessions, timing.median);
        rows.push([
          transport.name,
          String(sessions),
          summarize(rates).median.toFixed(0),
          formatMs(timing.median),
          formatMs(timing.p99),
          formatRatio(timing.median, baselines.get(sessions) ?? timing.median),
        ]);
      }
    }
  } finally {
    await server.core.gateway.dispose();
    await server.close();
    await rm(scratch, { recursive: true, force: true });
  }
  const table: BenchTable = {
    caption: '1 KB write_file calls (8 files per session, one turn per session: one checkpoint, then dedup)',
    columns: [
      'Path',
      'Concurrent sessions',
      'Calls/s (all sessions, median of runs)',
      'p50 latency',
      'p99 latency',
      'p50 vs in-process',
    ],
    rows,
  };
  return {
    title: 'Agent gateway: tool calls per transport',
    method: [
      'Each session is one agent connection doing sequential 1 KB `write_file` calls in one turn (the first call checkpoints its',
      'workspace, the rest find the checkpoint already taken). `vigil serve` runs in the bench process (`startServe`, port 0), so',
      'the baseline (the executor called directly on the same core) and the transports share one core and one event loop; the',
      'clients run in the same process too, and `vigil mcp` is one more child process per session (tsx, from source) relaying',
      'stdio to `/mcp`. Every call goes through validation, policy, the session log (flushed before the answer) and the atomic',
      `writer (fsync), so the disk dominates. ${context.isQuick ? 'Quick mode: one run of 5 calls per session.' : `${repetitions} runs of 150 calls (1 session) and 16 × 20 calls (16 sessions), after a 5-call warm-up; latency percentiles over every call of every run.`}`,
      "The machine (2 cores) is shared with other engineers' work: treat differences under ~20% as noise.",
    ].join(' '),
    tables: [table],
  };
};
