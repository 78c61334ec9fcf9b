import { spawn } from 'node:child_process';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { repoRoot, tsxLoader, vigilEntry } from '../test-support/run-vigil';
import { maxMcpBodyBytes } from './mcp-limits';
import { startServeFixture } from './test-support/gateway-fixture';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function place(): Promise<{ home: string; workspace: string }> {
  const temp = await makeTempDir('vigil-mcp-limits-');
  cleanups.push(() => temp.remove());
  const home = path.join(temp.dir, 'home');
  const workspace = path.join(temp.dir, 'workspace');
  await mkdir(workspace, { recursive: true });
  return { home, workspace };
}

interface Answer {
  readonly id?: number;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  readonly result?: unknown;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-stdio', version: '1' } },
});
const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
/** A write_file over the limit, its id last as the MCP SDKs write it (none: a notification, which cannot be answered). */
const oversized = (id: number | undefined): string =>
  JSON.stringify({
    method: 'tools/call',
    params: { name: 'write_file', arguments: { path: 'huge.txt', content: 'x'.repeat(maxMcpBodyBytes + 1024) } },
    jsonrpc: '2.0',
    ...(id === undefined ? {} : { id }),
  });
const smallWrite = (id: number): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'write_file', arguments: { path: 'small.txt', content: 'small' } },
  });

/**
 * Runs `vigil mcp` on raw stdio: writes each line once the previous one with an id was answered,
 * then closes stdin, and resolves once the process has exited (a process that never exits fails
 * the test by its timeout).
 */
function runRaw(
  home: string,
  workspace: string,
  lines: readonly string[],
): Promise<{ code: number | null; answers: Answer[]; stderr: string }> {
  const child = spawn(process.execPath, ['--import', tsxLoader, vigilEntry, 'mcp', '--cwd', workspace], {
    cwd: repoRoot,
    env: { ...process.env, VIGIL_HOME: home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const answers: Answer[] = [];
  let stdout = '';
  let stderr = '';
  let next = 0;
  let waitingFor: number | undefined;
  const writeNext = (): void => {
    while (waitingFor === undefined && next < lines.length) {
      const line = lines[next] ?? '';
      next += 1;
      child.stdin.write(`${line}\n`);
      const id = /"id":(\d+)\}$/u.exec(line)?.[1] ?? /^\{"jsonrpc":"2.0","id":(\d+)/u.exec(line)?.[1];
      waitingFor = id === undefined ? undefined : Number(id);
    }
    if (waitingFor === undefined && next >= lines.length) child.stdin.end();
  };
  child.stdin.on('error', () => undefined);
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    const parts = stdout.split('\n');
    stdout = parts.pop() ?? '';
    for (const part of parts) {
      const answer = JSON.parse(part) as Answer;
      answers.push(answer);
      if (answer.id === waitingFor || answer.id === undefined) waitingFor = undefined;
    }
    writeNext();
  });
  writeNext();
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, answers, stderr }));
  });
}

describe('vigil mcp fails loudly', () => {
  it('answers an oversized request with a JSON-RPC error naming the limit, keeps serving, and exits when stdin ends (no server running)', async () => {
    const { home, workspace } = await place();
    const run = await runRaw(home, workspace, [
      initialize,
      initialized,
      oversized(2),
      smallWrite(3),
      'this is not json',
    ]);
    expect(run.code).toBe(0);
    const refused = run.answers.find((answer) => answer.id === 2);
    expect(refused?.error?.code).toBe(-32600);
    expect(refused?.error?.message).toContain(`over vigil mcp's limit of 16 MB (${maxMcpBodyBytes} bytes)`);
    expect(refused?.error?.data).toMatchObject({ code: 'limit_exceeded', limitBytes: maxMcpBodyBytes });
    expect(run.answers.find((answer) => answer.id === 3)?.result).toMatchObject({
      structuredContent: { bytes_written: 5 },
    });
    expect(run.answers.some((answer) => answer.error?.code === -32700)).toBe(true);
    expect(await stat(path.join(workspace, 'huge.txt')).catch(() => undefined)).toBeUndefined();
    expect(await readFile(path.join(workspace, 'small.txt'), 'utf8')).toBe('small');
  });

  it('says so on stderr and exits with status 1 when an oversized message has no id to answer', async () => {
    const { home, workspace } = await place();
    const run = await runRaw(home, workspace, [initialize, initialized, oversized(undefined), smallWrite(3)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /vigil mcp: stdin sent a message of 16 MB \(\d+ bytes\), over vigil mcp's limit .* with no id to answer it; stopping \(exit status 1\)/u,
    );
    expect(run.answers.find((answer) => answer.id === 3)).toBeUndefined();
  });

  it('relaying to a running server: the oversized request is refused the same way, and the end of stdin ends the process and the session', async () => {
    const fixture = await startServeFixture();
    cleanups.push(() => fixture.close());
    const run = await runRaw(fixture.home, fixture.workspace, [initialize, initialized, oversized(2), smallWrite(3)]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('relaying to Vigil');
    expect(run.answers.find((answer) => answer.id === 2)?.error?.message).toContain("over vigil mcp's limit of 16 MB");
    expect(run.answers.find((answer) => answer.id === 3)?.result).toMatchObject({
      structuredContent: { bytes_written: 5 },
    });
    // The bridge ended the supervisor's session (an HTTP DELETE) before it exited.
    expect(fixture.running.core.sessions.list().find((session) => session.agent === 'raw-stdio')?.status).toBe('ended');
  });

  it('a real SDK client gets the error as a rejected call, and the session goes on', async () => {
    const { home, workspace } = await place();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', tsxLoader, vigilEntry, 'mcp', '--cwd', workspace],
      cwd: repoRoot,
      env: { ...(process.env as Record<string, string>), VIGIL_HOME: home },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'sdk-stdio', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    await expect(
      client.callTool({
        name: 'write_file',
        arguments: { path: 'huge.txt', content: 'x'.repeat(maxMcpBodyBytes + 1024) },
      }),
    ).rejects.toThrow(/over vigil mcp's limit of 16 MB/u);
    const small = (await client.callTool({
      name: 'write_file',
      arguments: { path: 'small.txt', content: 'ok' },
    })) as CallToolResult;
    expect(small.isError).not.toBe(true);
  });
});
