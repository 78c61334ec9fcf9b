import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { repoRoot, vigilEntry } from '../test-support/run-vigil';
import { startServeFixture, type ServeFixture } from './test-support/gateway-fixture';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Spawns `vigil mcp` for real and connects the SDK's Client (offering `roots` when given) to its stdio. */
async function spawnBridge(
  home: string,
  args: readonly string[],
  clientName = 'stdio-client',
  roots?: readonly string[],
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', vigilEntry, 'mcp', ...args],
    cwd: repoRoot,
    env: { ...(process.env as Record<string, string>), VIGIL_HOME: home },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client(
    { name: clientName, version: '2.0.0' },
    { capabilities: roots === undefined ? {} : { roots: {} } },
  );
  if (roots !== undefined) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: roots.map((root) => ({ uri: pathToFileURL(root).href })),
    }));
  }
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, stderr: () => stderr };
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

describe('vigil mcp (stdio)', () => {
  it('relays to the running supervisor, so the session is its own and shows live', async () => {
    const fixture: ServeFixture = await startServeFixture();
    cleanups.push(() => fixture.close());
    const { client, stderr } = await spawnBridge(fixture.home, ['--cwd', fixture.workspace]);
    expect(stderr()).toContain('relaying to Vigil');
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'write_file')?.inputSchema.required).toEqual(['path', 'content']);

    const written = (await client.callTool({
      name: 'write_file',
      arguments: { path: 'bridged.txt', content: 'via stdio' },
    })) as CallToolResult;
    expect(written.isError).not.toBe(true);
    expect(await readFile(path.join(fixture.workspace, 'bridged.txt'), 'utf8')).toBe('via stdio');
    const session = fixture.running.core.sessions.list().find((candidate) => candidate.agent === 'stdio-client');
    expect(session?.roots).toEqual([fixture.workspace]);
    expect(session?.toolCallCount).toBe(1);

    const dropped = (await client.callTool({
      name: 'write_file',
      arguments: { path: 'dropped.txt' },
    })) as CallToolResult;
    expect(dropped.isError).toBe(true);
    expect(text(dropped)).toMatch(/"content" is missing/);
    expect(await exists(path.join(fixture.workspace, 'dropped.txt'))).toBe(false);

    // When the client goes away, the bridge ends the supervisor's session instead of leaving it to expire.
    const { sessions } = fixture.running.core;
    const id = session?.id ?? '';
    const ended = new Promise<void>((resolve) => {
      const stop = sessions.onChanged((changed) => {
        if (changed.id === id && changed.status === 'ended') {
          stop();
          resolve();
        }
      });
    });
    await client.close();
    await ended;
  });

  it('relays with its own agent credential from the store: no credential in its argv, its environment or anything the client reads', async () => {
    const fixture: ServeFixture = await startServeFixture();
    cleanups.push(() => fixture.close());
    const child = spawn(process.execPath, ['--import', 'tsx', vigilEntry, 'mcp', '--cwd', fixture.workspace], {
      cwd: repoRoot,
      env: { ...process.env, VIGIL_HOME: fixture.home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const answered = (id: number): Promise<void> =>
      expect.poll(() => stdout.includes(`"id":${id}`), { timeout: 30_000 }).toBe(true);
    const send = (message: unknown): void => void child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await answered(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'write_file', arguments: { path: 'raw.txt', content: 'raw' } },
    });
    await answered(2);
    expect(await readFile(path.join(fixture.workspace, 'raw.txt'), 'utf8')).toBe('raw');

    const { AgentCredentialStore } = await import('../server/agent-credentials');
    const store = new AgentCredentialStore(path.join(fixture.home, 'agent-credentials.json'));
    const bridgeCredential = (await store.issue('mcp-stdio')).secret;
    expect((await store.list()).map((entry) => entry.name)).toContain('mcp-stdio');
    const secrets = [fixture.uiToken, bridgeCredential];
    if (process.platform === 'linux') {
      const environ = await readFile(`/proc/${child.pid ?? 0}/environ`, 'utf8');
      const cmdline = await readFile(`/proc/${child.pid ?? 0}/cmdline`, 'utf8');
      for (const secret of secrets) expect(environ + cmdline).not.toContain(secret);
    }
    // Revoked, the bridge is refused, and says so without showing any credential.
    await store.revoke('mcp-stdio');
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'read_file', arguments: { path: 'raw.txt' } },
    });
    await answered(3);
    expect(stdout).toContain("refused this bridge's agent credential");
    for (const secret of secrets) expect(stdout + stderr).not.toContain(secret);
    child.stdin.end();
  });

  it("relays the supervisor's roots/list request to the client and back, so the client's roots win over the cwd", async () => {
    const fixture: ServeFixture = await startServeFixture();
    cleanups.push(() => fixture.close());
    const rooted = path.join(fixture.scratch, 'rooted');
    await mkdir(rooted);
    const { client } = await spawnBridge(fixture.home, ['--cwd', fixture.workspace], 'rooted-stdio', [rooted]);
    const written = (await client.callTool({
      name: 'write_file',
      arguments: { path: 'via-roots.txt', content: 'r' },
    })) as CallToolResult;
    expect(written.isError).not.toBe(true);
    expect(await readFile(path.join(rooted, 'via-roots.txt'), 'utf8')).toBe('r');
    expect(await exists(path.join(fixture.workspace, 'via-roots.txt'))).toBe(false);
    expect(fixture.running.core.sessions.list().find((session) => session.agent === 'rooted-stdio')?.roots).toEqual([
      rooted,
    ]);
  });

  it('serves from an embedded core when no supervisor runs, and says so on stderr', async () => {
    const temp = await makeTempDir('vigil-mcp-embedded-');
    cleanups.push(() => temp.remove());
    const home = path.join(temp.dir, 'home');
    const workspace = path.join(temp.dir, 'workspace');
    await mkdir(workspace);
    const { client, stderr } = await spawnBridge(home, ['--cwd', workspace, '--agent', 'Embedded Agent']);
    expect(stderr()).toContain('embedded core');

    const written = (await client.callTool({
      name: 'write_file',
      arguments: { path: 'local.txt', content: 'embedded' },
    })) as CallToolResult;
    expect(written.isError).not.toBe(true);
    expect(await readFile(path.join(workspace, 'local.txt'), 'utf8')).toBe('embedded');
    const dropped = (await client.callTool({
      name: 'write_file',
      arguments: { path: 'dropped.txt' },
    })) as CallToolResult;
    expect(dropped.isError).toBe(true);
    expect(text(dropped)).toMatch(/"content" is missing/);
    expect(await exists(path.join(workspace, 'dropped.txt'))).toBe(false);
    // Nobody can approve through an embedded core: a command that needs a human is refused at once.
    const asked = (await client.callTool({ name: 'terminal', arguments: { command: 'sudo true' } })) as CallToolResult;
    expect(asked.isError).toBe(true);
    expect((asked._meta?.['vigil/call'] as { decision: string }).decision).toBe('denied');
    await client.close();

    const logs = await readdir(path.join(home, 'sessions'));
    const log = await readFile(path.join(home, 'sessions', logs.find((name) => name.endsWith('.jsonl')) ?? ''), 'utf8');
    expect(log).toContain('Embedded Agent');
    expect(log).toContain('local.txt');
  });

  it('answers with an error that says what happened when the supervisor goes away', async () => {
    const fixture: ServeFixture = await startServeFixture();
    let isClosed = false;
    cleanups.push(async () => {
      if (!isClosed) await fixture.close();
    });
    const { client } = await spawnBridge(fixture.home, ['--cwd', fixture.workspace]);
    await client.callTool({ name: 'read_file', arguments: { path: 'nothing.txt' } });
    await fixture.close();
    isClosed = true;
    await expect(
      client.callTool({ name: 'write_file', arguments: { path: 'late.txt', content: 'x' } }),
    ).rejects.toThrow(/not reachable/);
  });
});
