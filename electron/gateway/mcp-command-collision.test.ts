import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallCollision } from '../../shared/contract/call-collision-contract';
import type { SessionHistory } from '../../shared/contract/sessions-contract';
import { connectMcpClient, startServeFixture, type ServeFixture } from './test-support/gateway-fixture';

let fixture: ServeFixture | undefined;

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** Two real MCP clients in one workspace; the first has written src/app.ts with write_file. */
async function twoSessions(config: Record<string, unknown> = {}): Promise<{
  readonly served: ServeFixture;
  readonly first: Client;
  readonly second: Client;
  readonly file: string;
}> {
  const served = await startServeFixture(config);
  fixture = served;
  const file = path.join(served.workspace, 'src', 'app.ts');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, 'export const version = 1;\n');
  const query = { cwd: served.workspace };
  const { client: first } = await connectMcpClient(served, { name: 'claude-code', query });
  const { client: second } = await connectMcpClient(served, { name: 'claude-code', query });
  const wrote = (await first.callTool({
    name: 'write_file',
    arguments: { path: 'src/app.ts', content: 'export const version = 2; // first\n' },
  })) as CallToolResult;
  expect(wrote.isError).not.toBe(true);
  return { served, first, second, file };
}

const overwrite = { name: 'terminal', arguments: { command: "printf 'export const version = 3;\\n' > src/app.ts" } };

interface CallMeta {
  readonly decision: string;
  readonly callId: string;
  readonly collisions?: readonly CallCollision[];
}

describe('a terminal command that overwrites another session’s change (two real MCP clients)', () => {
  it('runs, and its result and history say which file it overwrote, whose change, and where their version is', async () => {
    const { served, second, file } = await twoSessions();
    const [first] = served.running.core.sessions.list().filter((session) => session.toolCallCount === 1);
    const result = (await second.callTool(overwrite)) as CallToolResult;
    const call = result._meta?.['vigil/call'] as CallMeta;
    expect(call.decision).toBe('allowed');
    expect(await readFile(file, 'utf8')).toBe('export const version = 3;\n');
    expect(call.collisions).toEqual([
      expect.objectContaining({
        path: file,
        displayPath: 'src/app.ts',
        otherSessionId: first?.id,
        otherLabel: 'claude-code #1',
        checkpoint: expect.objectContaining({ directory: served.workspace }) as unknown,
      }),
    ]);

    const secondId = served.running.core.sessions.list().find((session) => session.id !== first?.id)?.id ?? '';
    const history = await served.running.core.router.dispatch(
      'sessions:history',
      { sessionId: secondId },
      { transport: 'websocket', clientId: 'test', peer: 'page' },
    );
    if (!history.ok) throw new Error(history.error.message);
    const entries = (history.value as SessionHistory).turns.flatMap((turn) => turn.entries);
    const entry = entries.find((item) => item.kind === 'tool-call' && item.callId === call.callId);
    expect(entry).toMatchObject({ collisions: [{ displayPath: 'src/app.ts', otherLabel: 'claude-code #1' }] });
    // The session's card shows it on the command's row.
    const card = served.running.core.sessions.list().find((session) => session.id === secondId);
    expect(card?.recentCalls.find((brief) => brief.callId === call.callId)?.collisions).toEqual(call.collisions);
  });

  it('a command overwriting its own session’s file again carries no collision', async () => {
    const { first } = await twoSessions();
    const result = (await first.callTool(overwrite)) as CallToolResult;
    const call = result._meta?.['vigil/call'] as CallMeta;
    expect(call.decision).toBe('allowed');
    expect(call.collisions).toBeUndefined();
  });

  it('with sessions.collisions "off" the command carries no collision', async () => {
    const { second, file } = await twoSessions({ sessions: { collisions: 'off' } });
    const call = ((await second.callTool(overwrite)) as CallToolResult)._meta?.['vigil/call'] as CallMeta;
    expect(call.decision).toBe('allowed');
    expect(call.collisions).toBeUndefined();
    expect(await readFile(file, 'utf8')).toBe('export const version = 3;\n');
  });
});
