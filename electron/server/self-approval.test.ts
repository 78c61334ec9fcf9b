import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectMcpClient, startServeFixture, type ServeFixture } from '../gateway/test-support/gateway-fixture';
import { agentCredentialFor } from '../test-support/agent-credential';
import { childEnv, repoRoot } from '../test-support/run-vigil';

/** Opens /ws as told, lists the waiting approvals and tries to allow each (the scripts' shared step). */
const attemptSource = `
function attempt(options) {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers ?? {} });
    socket.on('unexpected-response', (_request, response) => resolve({ status: response.statusCode }));
    socket.on('error', (error) => resolve({ error: error.message }));
    socket.on('open', () => {
      socket.send(JSON.stringify({ type: 'call', id: 1, channel: 'approvals:list', payload: {} }));
      socket.on('message', (data) => {
        const frame = JSON.parse(String(data));
        if (frame.type !== 'result') return;
        if (frame.id === 1 && frame.result.ok) {
          const ids = frame.result.value.approvals.map((approval) => approval.id);
          if (ids.length === 0) return resolve({ status: 101, decided: [] });
          ids.forEach((id, index) => socket.send(JSON.stringify({ type: 'call', id: 2 + index, channel: 'approvals:decide', payload: { id, decision: 'allow' } })));
        } else if (frame.id >= 2) {
          resolve({ status: 101, decide: frame.result });
          socket.close();
        }
      });
    });
  });
}
`;

/**
 * The self-approval chain of issue 17: an agent writes a script that opens /ws and sends
 * approvals:decide for another agent's held-back command. The script is a real process holding
 * only what an agent holds (its own agent credential); it must be refused, and the command must never run.
 */
const attackScript = `
import { createRequire } from 'node:module';
const WebSocket = createRequire(process.env.REPO + '/package.json')('ws');
const url = 'ws://127.0.0.1:' + process.env.PORT + '/ws';
const credential = process.env.AGENT_CREDENTIAL;
${attemptSource}
const results = [
  await attempt({ headers: { authorization: 'Bearer ' + credential } }),
  await attempt({ protocols: ['vigil-ui', 'vigil-token.' + credential] }),
];
process.stdout.write(JSON.stringify(results));
`;

/**
 * A process outside the sandbox that reads serve.json and tries approvals:decide with its
 * credential three ways: a bearer header with the page's Origin forged, the page's subprotocols
 * with that Origin, and a bearer header with no Origin.
 */
const serveJsonScript = `
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const WebSocket = createRequire(process.env.REPO + '/package.json')('ws');
const info = JSON.parse(readFileSync(process.env.VIGIL_HOME + '/serve.json', 'utf8'));
const url = 'ws://127.0.0.1:' + info.port + '/ws';
const origin = 'http://127.0.0.1:' + info.port;
${attemptSource}
const results = [
  await attempt({ headers: { authorization: 'Bearer ' + info.token, origin } }),
  await attempt({ protocols: ['vigil-ui', 'vigil-token.' + info.token], headers: { origin } }),
  await attempt({ headers: { authorization: 'Bearer ' + info.token } }),
];
process.stdout.write(JSON.stringify(results));
`;

let fixture: ServeFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function runScript(scratch: string, port: number, credential: string): Promise<unknown> {
  return runNode(scratch, attackScript, { PORT: String(port), AGENT_CREDENTIAL: credential });
}

async function runServeJsonScript(scratch: string, home: string): Promise<unknown> {
  return runNode(scratch, serveJsonScript, { VIGIL_HOME: home });
}

async function runNode(scratch: string, source: string, env: Record<string, string>): Promise<unknown> {
  const file = path.join(scratch, `approve-${randomUUID()}.mjs`);
  await writeFile(file, source);
  const child = spawn(process.execPath, [file], { env: childEnv({ REPO: repoRoot, ...env }) });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  await new Promise((resolve) => child.once('exit', resolve));
  return JSON.parse(stdout) as unknown;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** Starts a server where `touch` waits for a human, and an agent whose `touch held-back.txt` is held back. */
async function heldBackCommand(): Promise<{
  readonly fixture: ServeFixture;
  readonly call: Promise<CallToolResult>;
  readonly approvalId: string;
}> {
  const started = await startServeFixture({
    policy: {
      rules: [{ effect: 'ask', tool: 'terminal', command: 'touch', reason: 'touch waits for a human in this test' }],
    },
  });
  fixture = started;
  const { client } = await connectMcpClient(started, { name: 'agent-a', roots: [started.workspace] });
  const requested = new Promise<string>((resolve) =>
    started.running.core.events.on('approvals:requested', ({ approval }) => resolve(approval.id)),
  );
  const call = client.callTool({
    name: 'terminal',
    arguments: { command: 'touch held-back.txt' },
  }) as Promise<CallToolResult>;
  return { fixture: started, call, approvalId: await requested };
}

async function callRecords(home: string): Promise<readonly Record<string, unknown>[]> {
  const folder = path.join(home, 'sessions');
  const lines: Record<string, unknown>[] = [];
  for (const name of await readdir(folder)) {
    if (!name.endsWith('.jsonl')) continue;
    for (const line of (await readFile(path.join(folder, name), 'utf8')).split('\n')) {
      if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
    }
  }
  return lines.filter((record) => record['type'] === 'call');
}

describe('agents cannot approve their own commands', () => {
  it("an agent's script that opens /ws with its agent credential gets 403, and the held-back command never runs", async () => {
    const { fixture: started, call, approvalId } = await heldBackCommand();
    const scriptCredential = await agentCredentialFor(started.home, 'agent-b');
    const results = await runScript(started.scratch, started.running.http.port, scriptCredential);
    expect(results).toEqual([{ status: 403 }, { status: 403 }]);
    // Still waiting for a person: nothing decided it.
    const waiting = await started.running.core.router.dispatch(
      'approvals:list',
      {},
      { transport: 'test', clientId: 'check' },
    );
    expect(waiting).toMatchObject({ ok: true, value: { approvals: [{ id: approvalId }] } });
    expect(await exists(path.join(started.workspace, 'held-back.txt'))).toBe(false);

    // The session ends; its held-back call is denied and never runs.
    await started.running.core.sessions.close(
      started.running.core.sessions.list().find((session) => session.agent === 'agent-a')?.id ?? '',
    );
    const outcome = await call;
    expect(outcome.isError).toBe(true);
    expect((outcome._meta?.['vigil/call'] as { decision: string }).decision).toBe('denied');
    expect(await exists(path.join(started.workspace, 'held-back.txt'))).toBe(false);
  });

  it("a process that reads serve.json cannot approve, whatever Origin it forges; the page's credential can, and the log says page", async () => {
    const { fixture: started, call, approvalId } = await heldBackCommand();
    // What an agent run outside the sandbox (through hooks) can do: read serve.json, forge the page's Origin.
    const results = await runServeJsonScript(started.scratch, started.home);
    const refusal = {
      status: 101,
      decide: {
        ok: false,
        error: { code: 'denied', message: expect.stringContaining("serve.json's credential is the CLI's") as unknown },
      },
    };
    expect(results).toMatchObject([refusal, refusal, refusal]);
    expect(await exists(path.join(started.workspace, 'held-back.txt'))).toBe(false);
    const waiting = await started.running.core.router.dispatch(
      'approvals:list',
      {},
      { transport: 'test', clientId: 'check' },
    );
    expect(waiting).toMatchObject({ ok: true, value: { approvals: [{ id: approvalId }] } });
    // serve.json holds neither the page's credential nor a URL that carries it.
    const serveJson = await readFile(path.join(started.home, 'serve.json'), 'utf8');
    expect(serveJson).not.toContain(started.pageToken);
    expect(started.running.http.url).toContain(`#token=${started.pageToken}`);

    // The page: its own credential (from the printed URL), from a browser that sends the server's Origin.
    const origin = `http://127.0.0.1:${started.running.http.port}`;
    const socket = new WebSocket(
      `ws://127.0.0.1:${started.running.http.port}/ws`,
      ['vigil-ui', `vigil-token.${started.pageToken}`],
      { headers: { origin } },
    );
    const answer = new Promise<unknown>((resolve) =>
      socket.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString('utf8')) as { type: string; id?: number; result?: unknown };
        if (frame.type === 'result' && frame.id === 7) resolve(frame.result);
      }),
    );
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(
      JSON.stringify({
        type: 'call',
        id: 7,
        channel: 'approvals:decide',
        payload: { id: approvalId, decision: 'allow' },
      }),
    );
    expect(await answer).toMatchObject({ ok: true, value: { decision: 'allowed' } });
    socket.close();
    const outcome = await call;
    expect((outcome._meta?.['vigil/call'] as { decision: string }).decision).toBe('asked-allowed');
    expect(await exists(path.join(started.workspace, 'held-back.txt'))).toBe(true);
    expect(await callRecords(started.home)).toEqual([
      expect.objectContaining({ name: 'terminal', decision: 'asked-allowed', decidedVia: 'page' }),
    ]);
  });
});
