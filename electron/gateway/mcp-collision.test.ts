import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalAnswer } from '../../shared/contract/approvals-contract';
import { nextEvent } from '../test-support/next-event';
import {
  callHeldForPerson,
  connectMcpClient,
  startServeFixture,
  type ServeFixture,
} from './test-support/gateway-fixture';

let fixture: ServeFixture | undefined;

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function errorOf(result: CallToolResult): { code: string; message: string; details?: Record<string, unknown> } {
  const meta = result._meta?.['vigil/call'] as { error?: { code: string; message: string } } | undefined;
  if (meta?.error === undefined) throw new Error(`no error in ${JSON.stringify(result)}`);
  return meta.error;
}

/** Two real MCP clients of one agent, in one workspace; the first has written src/app.ts. */
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

const secondWrite = { name: 'write_file', arguments: { path: 'src/app.ts', content: 'export const version = 3;\n' } };

/** Sends the second client's write, waits for its approval, answers it as a person on the served page would. */
async function answerCollision(
  served: ServeFixture,
  second: Client,
  answer: ApprovalAnswer,
): Promise<{ readonly result: CallToolResult; readonly reason: string; readonly collision: unknown }> {
  const { result, approval } = await callHeldForPerson(served, second, secondWrite, answer);
  return { result, reason: approval.reason, collision: approval.collision };
}

describe('the collision guard over MCP (two real clients)', () => {
  it('holds the second session’s overwrite for a person, with both changes; "let it" writes it', async () => {
    const { served, second, file } = await twoSessions();
    const { result, reason, collision } = await answerCollision(served, second, 'allow');
    expect(reason).toMatch(/^claude-code #2 would overwrite src\/app\.ts, changed by claude-code #1 \d+ s ago$/);
    expect(collision).toMatchObject({
      displayPath: 'src/app.ts',
      label: 'claude-code #2',
      otherLabel: 'claude-code #1',
    });
    const diffs = collision as { theirs?: string; proposed?: string };
    expect(diffs.theirs).toContain('-export const version = 1;');
    expect(diffs.theirs).toContain('+export const version = 2; // first');
    expect(diffs.proposed).toContain('-export const version = 2; // first');
    expect(diffs.proposed).toContain('+export const version = 3;');
    expect(result.isError).not.toBe(true);
    expect((result._meta?.['vigil/call'] as { decision: string }).decision).toBe('asked-allowed');
    expect(await readFile(file, 'utf8')).toBe('export const version = 3;\n');
  });

  it('"deny" returns code collision naming the file and the other session, and writes nothing', async () => {
    const { served, second, file } = await twoSessions();
    const { result } = await answerCollision(served, second, 'deny');
    expect(result.isError).toBe(true);
    const error = errorOf(result);
    expect(error.code).toBe('collision');
    expect(text(result)).toContain('write_file of src/app.ts was not run: claude-code #1, another live session');
    expect(text(result)).toContain('Read src/app.ts again before changing it');
    expect(await readFile(file, 'utf8')).toBe('export const version = 2; // first\n');
  });

  it('"deny and re-read" says so; once the agent has read the file, its next change goes through', async () => {
    const { served, second, file } = await twoSessions();
    const { result } = await answerCollision(served, second, 'deny-reread');
    expect(errorOf(result)).toMatchObject({ code: 'collision', details: { reread: true } });
    expect(text(result)).toContain('asks you to read the file again now');
    const read = (await second.callTool({ name: 'read_file', arguments: { path: 'src/app.ts' } })) as CallToolResult;
    expect(text(read)).toContain('// first');
    const again = (await second.callTool({
      name: 'write_file',
      arguments: { path: 'src/app.ts', content: 'export const version = 3; // first\n' },
    })) as CallToolResult;
    expect((again._meta?.['vigil/call'] as { decision: string }).decision).toBe('allowed');
    expect(await readFile(file, 'utf8')).toBe('export const version = 3; // first\n');
  });

  it('the same session changing its own file again is not held', async () => {
    const { first, file } = await twoSessions();
    const again = (await first.callTool(secondWrite)) as CallToolResult;
    expect((again._meta?.['vigil/call'] as { decision: string }).decision).toBe('allowed');
    expect(await readFile(file, 'utf8')).toBe('export const version = 3;\n');
  });

  it('with sessions.collisions "warn" the change runs and says what it overwrote; with "off" it runs silently', async () => {
    const warned = await twoSessions({ sessions: { collisions: 'warn' } });
    const result = (await warned.second.callTool(secondWrite)) as CallToolResult;
    const call = result._meta?.['vigil/call'] as { decision: string; reason?: string };
    expect(call.decision).toBe('allowed');
    expect(call.reason).toMatch(/^collision: claude-code #2 would overwrite src\/app\.ts, changed by claude-code #1/);
    expect(await readFile(warned.file, 'utf8')).toBe('export const version = 3;\n');
    await warned.served.close();
    fixture = undefined;

    const off = await twoSessions({ sessions: { collisions: 'off' } });
    const quiet = (await off.second.callTool(secondWrite)) as CallToolResult;
    expect(quiet._meta?.['vigil/call']).toMatchObject({ decision: 'allowed' });
    expect((quiet._meta?.['vigil/call'] as { reason?: string }).reason).toBeUndefined();
    expect(await readFile(off.file, 'utf8')).toBe('export const version = 3;\n');
  });

  it('a change older than sessions.collisionMinutes, outside the other’s open turn, is not held', async () => {
    const { second, file } = await twoSessions({ sessions: { collisionMinutes: 0 }, gateway: { turnIdleGapMs: 100 } });
    // The first session's turn ends after its idle gap; wait for that signal, not for time.
    const ended = await waitForTurnEnd();
    expect(ended).toBe(true);
    const result = (await second.callTool(secondWrite)) as CallToolResult;
    expect((result._meta?.['vigil/call'] as { decision: string }).decision).toBe('allowed');
    expect(await readFile(file, 'utf8')).toBe('export const version = 3;\n');
  });
});

/** Resolves once the first session's turn is no longer open (the gateway closes it after its idle gap). */
async function waitForTurnEnd(): Promise<boolean> {
  const served = fixture;
  if (served === undefined) return false;
  const { sessions, events } = served.running.core;
  const isClosed = (): boolean => sessions.list().some((session) => session.toolCallCount === 1 && !session.isTurnOpen);
  if (isClosed()) return true;
  await nextEvent(events, 'sessions:changed', () => isClosed());
  return true;
}
