import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallCollision, OverwriteNotice } from '../../shared/contract/call-collision-contract';
import type { SessionHistory } from '../../shared/contract/sessions-contract';
import { loadSessionLog } from '../sessions/load-session-logs';
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

/** A session's history through the contract, as the UI reads it. */
async function historyOf(served: ServeFixture, sessionId: string): Promise<SessionHistory> {
  const history = await served.running.core.router.dispatch(
    'sessions:history',
    { sessionId },
    { transport: 'websocket', clientId: 'test', peer: 'page' },
  );
  if (!history.ok) throw new Error(history.error.message);
  return history.value as SessionHistory;
}

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

  it('the session whose change was overwritten is told too: its card and the row of its write name who overwrote it, when, and where its version is', async () => {
    const { served, second, file } = await twoSessions();
    const sessions = served.running.core.sessions;
    const firstId = sessions.list().find((session) => session.toolCallCount === 1)?.id ?? '';
    const secondId = sessions.list().find((session) => session.id !== firstId)?.id ?? '';
    const call = ((await second.callTool(overwrite)) as CallToolResult)._meta?.['vigil/call'] as CallMeta;
    const expected = {
      path: file,
      displayPath: 'src/app.ts',
      bySessionId: secondId,
      byLabel: 'claude-code #2',
      byTool: 'terminal',
      changedAt: call.collisions?.[0]?.changedAt,
      checkpoint: call.collisions?.[0]?.checkpoint,
    };
    const card = sessions.list().find((session) => session.id === firstId);
    expect(card?.overwrites).toEqual([expect.objectContaining(expected)]);
    // The row of its own write_file carries it, on the card and in its transcript.
    const write = card?.recentCalls.find((brief) => brief.name === 'write_file');
    expect(write?.overwrittenBy).toEqual([expect.objectContaining(expected)]);
    const entries = (await historyOf(served, firstId)).turns.flatMap((turn) => turn.entries);
    const written = entries.find((entry) => entry.kind === 'tool-call' && entry.name === 'write_file');
    expect(written).toMatchObject({ overwrittenBy: [expected] });
    // The overwriting session is not told about itself; the checkpoint named holds the first session's version.
    expect(sessions.list().find((session) => session.id === secondId)?.overwrites).toBeUndefined();
    const held = (card?.overwrites?.[0] as OverwriteNotice).checkpoint;
    const store = path.join(served.home, 'checkpoints', 'store');
    const version = execFileSync('git', ['--git-dir', store, 'show', `${held?.checkpointId ?? ''}:src/app.ts`], {
      encoding: 'utf8',
    });
    expect(version).toBe('export const version = 2; // first\n');
    // The log holds it: the session read again from disk says the same.
    const loaded = await loadSessionLog(path.join(served.home, 'sessions', `${firstId}.jsonl`), () => undefined);
    expect(loaded?.state.overwrites).toEqual(card?.overwrites);
  });

  it('a file tool let run over another session’s change ("warn") records it on its own row, and tells the other session', async () => {
    const { served, second, file } = await twoSessions({ sessions: { collisions: 'warn' } });
    const sessions = served.running.core.sessions;
    const firstId = sessions.list().find((session) => session.toolCallCount === 1)?.id ?? '';
    const result = (await second.callTool({
      name: 'write_file',
      arguments: { path: 'src/app.ts', content: 'export const version = 4;\n' },
    })) as CallToolResult;
    const call = result._meta?.['vigil/call'] as CallMeta;
    expect(call.decision).toBe('allowed');
    expect(await readFile(file, 'utf8')).toBe('export const version = 4;\n');
    expect(call.collisions).toEqual([
      expect.objectContaining({
        path: file,
        displayPath: 'src/app.ts',
        otherSessionId: firstId,
        otherLabel: 'claude-code #1',
      }),
    ]);
    const card = sessions.list().find((session) => session.id === firstId);
    expect(card?.overwrites).toEqual([
      expect.objectContaining({ path: file, byLabel: 'claude-code #2', byTool: 'write_file' }),
    ]);
    expect(card?.recentCalls.find((brief) => brief.name === 'write_file')?.overwrittenBy).toHaveLength(1);
  });
});
