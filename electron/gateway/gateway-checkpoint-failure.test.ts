import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { VigilAgentClient } from '../../agent-client/vigil-agent-client';
import type { ApprovalAnswer } from '../../shared/contract/approvals-contract';
import type { SessionHistory } from '../../shared/contract/sessions-contract';
import { makeObjectsUnreadable } from '../checkpoints/test-support/unreadable-objects';
import { callsOf, gitTimeline } from '../hooks/test-support/hook-runs';
import {
  callHeldForPerson,
  connectMcpClient,
  decideAsPerson,
  startServeFixture,
  type ServeFixture,
} from './test-support/gateway-fixture';

let fixture: ServeFixture | undefined;

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

interface CallMeta {
  readonly decision: string;
  readonly checkpoints: readonly unknown[];
  readonly checkpointProblems?: readonly string[];
  readonly error?: { readonly code: string; readonly message: string };
}

const metaOf = (result: CallToolResult): CallMeta => result._meta?.['vigil/call'] as CallMeta;
const textOf = (result: CallToolResult): string =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

/**
 * A served workspace whose store holds one checkpoint (a first session wrote a.txt), then breaks:
 * its objects folder becomes unreadable, so every checkpoint fails for real. `mend` puts the store
 * back, so git's own CLI can read the timeline.
 */
async function brokenStore(config?: Record<string, unknown>): Promise<{
  readonly served: ServeFixture;
  readonly agent: Client;
  readonly file: string;
  readonly before: Awaited<ReturnType<typeof gitTimeline>>;
  readonly mend: () => Promise<void>;
}> {
  const served = await startServeFixture(config);
  fixture = served;
  const query = { cwd: served.workspace };
  const { client: first } = await connectMcpClient(served, { name: 'first-agent', query });
  const wrote = (await first.callTool({ name: 'write_file', arguments: { path: 'a.txt', content: 'a\n' } })) as
    CallToolResult | undefined;
  expect(wrote?.isError).not.toBe(true);
  const before = await gitTimeline(served.home, served.workspace);
  expect(before).toHaveLength(1);
  const mend = await makeObjectsUnreadable(served.home);
  // A second session: its first change of its turn needs a checkpoint of its own.
  const { client: agent } = await connectMcpClient(served, { name: 'second-agent', query });
  return { served, agent, file: path.join(served.workspace, 'b.txt'), before, mend };
}

// A file no session changed: nothing but the failed checkpoint holds it.
const change = { name: 'write_file', arguments: { path: 'b.txt', content: 'written without a checkpoint\n' } };

/** Sends the change and answers its approval as a person on the served page would; fails if the call ran unasked. */
async function answerAsPerson(
  served: ServeFixture,
  agent: Client,
  answer: ApprovalAnswer,
): Promise<{ readonly result: CallToolResult; readonly reason: string; readonly sessionId: string }> {
  const { result, approval } = await callHeldForPerson(served, agent, change, answer);
  // The card says an approval runs it without a checkpoint (not the usual promise of one).
  expect(approval.isWithoutCheckpoint).toBe(true);
  return { result, reason: approval.reason, sessionId: approval.sessionId };
}

describe('a write over MCP or /agent whose checkpoint fails (real clients, a real broken store)', () => {
  it('is held for a person, saying why; denied, it writes nothing and leaves no checkpoint', async () => {
    const { served, agent, file, before, mend } = await brokenStore();
    const { result, reason } = await answerAsPerson(served, agent, 'deny');
    expect(reason).toMatch(/could not checkpoint before this change, so it could not be undone/);
    expect(reason).toContain(`The checkpoint of ${served.workspace} before write_file failed`);
    expect(result.isError).toBe(true);
    expect(metaOf(result)).toMatchObject({ decision: 'denied', checkpoints: [] });
    expect(textOf(result)).toMatch(/write_file was not run: Vigil could not checkpoint/);
    expect(existsSync(file)).toBe(false);
    await mend();
    expect(await gitTimeline(served.home, served.workspace)).toEqual(before);
  }, 60_000);

  it('allowed by a person, it runs, and its result and record say it has no checkpoint', async () => {
    const { served, agent, file, before, mend } = await brokenStore();
    const { result, sessionId } = await answerAsPerson(served, agent, 'allow');
    expect(result.isError).not.toBe(true);
    expect(metaOf(result)).toMatchObject({ decision: 'asked-allowed', checkpoints: [] });
    expect(metaOf(result).checkpointProblems).toEqual([
      expect.stringContaining('before write_file failed') as unknown,
      expect.stringMatching(/A person allowed it to run without its checkpoint/) as unknown,
    ]);
    expect(textOf(result)).toMatch(/No checkpoint was taken before this call/);
    expect(await readFile(file, 'utf8')).toBe('written without a checkpoint\n');
    // The session's record, as the UI reads it: asked and allowed, no checkpoint claimed, the reason kept.
    const history = await served.running.core.router.dispatch(
      'sessions:history',
      { sessionId },
      { transport: 'websocket', clientId: 'test', peer: 'page' },
    );
    if (!history.ok) throw new Error(history.error.message);
    const [recorded] = callsOf(history.value as SessionHistory);
    expect(recorded).toMatchObject({ name: 'write_file', decision: 'asked-allowed', checkpoints: [] });
    expect(recorded?.checkpointProblems.at(-1)).toMatch(/A person allowed it to run without its checkpoint/);
    await mend();
    expect(await gitTimeline(served.home, served.workspace)).toEqual(before);
  }, 60_000);

  it('with checkpoints.onFailure "allow" it runs unasked, and its result says plainly it has no checkpoint', async () => {
    const { served, agent, file, mend } = await brokenStore({ checkpoints: { onFailure: 'allow' } });
    let asked = false;
    const stop = served.running.core.events.on('approvals:requested', () => (asked = true));
    const result = (await agent.callTool(change)) as CallToolResult;
    stop();
    expect(asked).toBe(false);
    expect(metaOf(result)).toMatchObject({ decision: 'allowed', checkpoints: [] });
    expect(metaOf(result).checkpointProblems?.at(-1)).toMatch(/checkpoints\.onFailure is "allow"/);
    expect(textOf(result)).toMatch(/No checkpoint was taken before this call/);
    expect(await readFile(file, 'utf8')).toBe('written without a checkpoint\n');
    await mend();
  }, 60_000);

  it('over /agent, a concurrent batch whose checkpoint fails is held call by call; denied, nothing is written', async () => {
    const { served, before, mend } = await brokenStore();
    const client = await VigilAgentClient.connect({ url: served.baseUrl, token: served.agentToken, reconnect: false });
    try {
      const session = await client.openSession({ agent: 'rpc-agent', roots: [served.workspace] });
      await session.beginTurn('write two files');
      const reasons: string[] = [];
      const stop = served.running.core.events.on('approvals:requested', ({ approval }) => {
        reasons.push(approval.reason);
        void decideAsPerson(served, approval.id, 'deny');
      });
      const outcomes = await session.callTools(
        ['c', 'd'].map((name) => ({ name: 'write_file', arguments: { path: `${name}.txt`, content: name } })),
        { concurrent: true },
      );
      stop();
      expect(reasons).toHaveLength(2);
      expect(reasons.every((reason) => reason.startsWith('Vigil could not checkpoint before this change'))).toBe(true);
      expect(outcomes.map((outcome) => [outcome.decision, outcome.checkpoints.length, outcome.result.ok])).toEqual([
        ['denied', 0, false],
        ['denied', 0, false],
      ]);
      expect(existsSync(path.join(served.workspace, 'c.txt')) || existsSync(path.join(served.workspace, 'd.txt'))).toBe(
        false,
      );
    } finally {
      await client.close();
    }
    await mend();
    expect(await gitTimeline(served.home, served.workspace)).toEqual(before);
  }, 60_000);
});
