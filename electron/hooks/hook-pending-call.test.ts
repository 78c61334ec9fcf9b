import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookAgent, HookEvent, HookTool } from '../../shared/hooks/hook-event';
import { createCore, type Core } from '../core/create-core';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';

let temp: { dir: string; remove: () => Promise<void> };
let project: string;
let core: Core;

type Event = Omit<HookEvent, 'agent' | 'sessionId' | 'cwd'>;

async function hook(event: Event, agent: HookAgent = 'claude-code') {
  const answer = await core.router.dispatch(
    'hooks:event',
    { agent, sessionId: 'asker', cwd: project, ...event },
    { transport: 'cli', clientId: 'test' },
  );
  expect(answer).toMatchObject({ ok: true });
  return answer;
}

function bash(command: string, callId: string): HookTool {
  return { kind: 'shell', name: 'Bash', command, input: { command }, callId };
}

function write(file: string, callId: string): HookTool {
  const target = path.join(project, file);
  return { kind: 'file', name: 'Write', path: target, input: { file_path: target, content: 'x\n' }, callId };
}

const sessionId = 'claude-code-asker';
const summary = () => core.sessions.get(sessionId);

beforeEach(async () => {
  temp = await makeTempDir('vigil-hook-pending-');
  const home = path.join(temp.dir, 'home');
  project = path.join(temp.dir, 'project');
  await mkdir(project, { recursive: true });
  await mkdir(home, { recursive: true });
  const rules = [
    { effect: 'ask', tool: 'terminal', command: 'touch', reason: 'the test asks about every touch' },
    { effect: 'deny', tool: 'terminal', command: 'npm publish', reason: 'no publishing from tests' },
  ];
  await writeFile(path.join(home, 'config.json'), JSON.stringify({ policy: { rules } }));
  core = await createCore({
    home,
    logger: silentLogger,
    env: { VIGIL_HOME: home, HOME: path.join(temp.dir, 'user'), HERMES_HOME: path.join(temp.dir, 'no-hermes') },
  });
  await hook({ kind: 'prompt', prompt: 'make a marker' });
});
afterEach(async () => {
  await core.dispose();
  await temp.remove();
});

describe("a hook call waiting at the agent's own prompt", () => {
  it('is pending from the "ask" until its result comes, and the session waits for approval meanwhile', async () => {
    const changes: unknown[] = [];
    const stop = core.events.on('sessions:changed', ({ session }) => changes.push(session.pendingCall));
    expect(await hook({ kind: 'pre-tool', tool: bash('touch asked.txt', 'toolu_1') })).toMatchObject({
      value: { decision: 'ask' },
    });
    expect(summary()).toMatchObject({
      status: 'waiting-approval',
      toolCallCount: 0,
      pendingCall: {
        callId: 'toolu_1',
        name: 'Bash',
        turn: 1,
        summary: 'touch asked.txt',
        isAsking: true,
        reason: expect.stringContaining('the test asks about every touch') as unknown,
        agentName: 'Claude Code',
      },
    });
    // The UI is told as it happens, not only when the call ends.
    expect(changes).toContainEqual(expect.objectContaining({ callId: 'toolu_1', isAsking: true }));

    await hook({ kind: 'post-tool', tool: bash('touch asked.txt', 'toolu_1'), outcome: { ok: true, response: {} } });
    expect(summary().pendingCall).toBeUndefined();
    expect(summary()).toMatchObject({
      status: 'working',
      toolCallCount: 1,
      lastToolCall: { callId: 'toolu_1', decision: 'asked-allowed' },
    });
    stop();
  });

  it('ends when the call fails (PostToolUseFailure), and a result of another call leaves it pending', async () => {
    await hook({ kind: 'pre-tool', tool: bash('touch one.txt', 'toolu_1') });
    await hook({ kind: 'post-tool', tool: write('other.txt', 'toolu_0'), outcome: { ok: true, response: {} } });
    expect(summary().pendingCall).toMatchObject({ callId: 'toolu_1' });
    await hook({ kind: 'post-tool', tool: bash('touch one.txt', 'toolu_1'), outcome: { ok: false, error: 'boom' } });
    expect(summary().pendingCall).toBeUndefined();
    expect(summary().lastToolCall).toMatchObject({ callId: 'toolu_1', isOk: false });
  });

  it('ends when the turn stops without a result (refused at the prompt), recorded as denied', async () => {
    await hook({ kind: 'pre-tool', tool: bash('touch no.txt', 'toolu_1') });
    expect(summary().pendingCall).toMatchObject({ callId: 'toolu_1', isAsking: true });
    await hook({ kind: 'stop' });
    expect(summary()).toMatchObject({ status: 'idle', lastToolCall: { callId: 'toolu_1', decision: 'denied' } });
    expect(summary().pendingCall).toBeUndefined();
  });

  it('ends when the session ends', async () => {
    await hook({ kind: 'pre-tool', tool: bash('touch no.txt', 'toolu_1') });
    expect(summary().pendingCall).toMatchObject({ callId: 'toolu_1', isAsking: true });
    await hook({ kind: 'session-end', reason: 'exit' });
    expect(summary().status).toBe('ended');
    expect(summary().pendingCall).toBeUndefined();
  });

  it('is replaced by the next PreToolUse: one let go on shows as not asking, and a refused one leaves none', async () => {
    await hook({ kind: 'pre-tool', tool: bash('touch one.txt', 'toolu_1') });
    expect(await hook({ kind: 'pre-tool', tool: write('two.txt', 'toolu_2') })).toMatchObject({
      value: { decision: 'allow' },
    });
    expect(summary()).toMatchObject({
      status: 'working',
      pendingCall: { callId: 'toolu_2', name: 'Write', isAsking: false, summary: path.join(project, 'two.txt') },
    });
    expect(summary().pendingCall?.reason).toBeUndefined();
    expect(await hook({ kind: 'pre-tool', tool: bash('npm publish', 'toolu_3') })).toMatchObject({
      value: { decision: 'deny' },
    });
    expect(summary().pendingCall).toBeUndefined();
    expect(summary().lastToolCall).toMatchObject({ callId: 'toolu_3', decision: 'blocked' });
  });

  it("names Gemini CLI for Gemini's BeforeTool, and its AfterTool ends it", async () => {
    const shell: HookTool = {
      kind: 'shell',
      name: 'run_shell_command',
      command: 'touch g.txt',
      input: { command: 'touch g.txt' },
    };
    await hook({ kind: 'prompt', prompt: 'make a marker' }, 'gemini-cli');
    await hook({ kind: 'pre-tool', tool: shell }, 'gemini-cli');
    const gemini = () => core.sessions.get('gemini-cli-asker');
    expect(gemini()).toMatchObject({
      status: 'waiting-approval',
      pendingCall: { name: 'run_shell_command', summary: 'touch g.txt', isAsking: true, agentName: 'Gemini CLI' },
    });
    await hook({ kind: 'post-tool', tool: shell, outcome: { ok: true, response: {} } }, 'gemini-cli');
    expect(gemini().pendingCall).toBeUndefined();
  });
});
