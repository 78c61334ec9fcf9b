import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger';
import { SessionRegistry } from '../sessions/session-registry';
import { makeTempDir } from '../test-support/temp-dir';
import { createAgentHarness, type AgentHarness } from './test-support/agent-harness';

let harness: AgentHarness;
let sessionId: string;

beforeEach(async () => {
  harness = await createAgentHarness({ files: { 'a.txt': 'a\n' } });
  sessionId = (await harness.sessions.open({ agent: 'edges', roots: [harness.workspace] })).id;
});
afterEach(async () => {
  await harness.close();
});

describe('the executor at its edges', () => {
  it("refuses paths outside the workspace and in Vigil's data folder before any checkpoint", async () => {
    const outcomes = await harness.executor.execute(
      sessionId,
      [
        { name: 'write_file', arguments: { path: '../escape.txt', content: 'x' } },
        { name: 'read_file', arguments: { path: path.join(harness.base, 'vigil', 'sessions', `${sessionId}.jsonl`) } },
        { name: 'terminal', arguments: { command: 'ls', cwd: '..' } },
      ],
      { concurrent: true },
    );
    expect(outcomes.map((outcome) => [outcome.decision, outcome.result.ok ? 'ok' : outcome.result.error.code])).toEqual(
      [
        ['blocked', 'outside_workspace'],
        ['blocked', 'forbidden_path'],
        ['blocked', 'outside_workspace'],
      ],
    );
    expect(existsSync(path.join(harness.base, 'escape.txt'))).toBe(false);
    expect(harness.gitLog(harness.workspace)).toEqual([]);
  });

  it('names an unknown tool, and says a session without roots has no workspace', async () => {
    const [unknown] = await harness.executor.execute(sessionId, [{ name: 'delete_everything', arguments: {} }], {
      concurrent: false,
    });
    expect(unknown).toMatchObject({ decision: 'invalid', result: { ok: false, error: { code: 'unknown_call' } } });
    const bare = await harness.sessions.open({ agent: 'no-roots', roots: [] });
    const [write, terminal] = await harness.executor.execute(
      bare.id,
      [
        { name: 'write_file', arguments: { path: 'x.txt', content: '' } },
        { name: 'terminal', arguments: { command: 'ls' } },
      ],
      { concurrent: false },
    );
    expect(write?.result).toMatchObject({
      ok: false,
      error: { code: 'outside_workspace', message: expect.stringContaining('no workspace roots') as unknown },
    });
    expect(terminal?.result).toMatchObject({
      ok: false,
      error: { code: 'outside_workspace', message: expect.stringContaining('no working directory') as unknown },
    });
  });

  it('rejects a batch for an unknown or closed session, and a malformed batch naming the field', async () => {
    await expect(harness.executor.execute('ses_unknown', [], { concurrent: false })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      harness.executor.execute(sessionId, [{ name: 7 } as never], { concurrent: false }),
    ).rejects.toMatchObject({ code: 'invalid_request', details: { field: 'calls.0.name' } });
    await harness.sessions.close(sessionId);
    await expect(harness.executor.execute(sessionId, [], { concurrent: false })).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it('emits every call as it finishes and logs it, with the live status working through the turn and idle once it ends', async () => {
    const statuses: string[] = [];
    const stop = harness.sessions.onChanged((session) => statuses.push(session.status));
    await harness.executor.execute(
      sessionId,
      [{ callId: 'mine', name: 'terminal', arguments: { command: 'echo hi', timeout_ms: 10_000 } }],
      { concurrent: true },
    );
    await harness.sessions.endTurn(sessionId);
    stop();
    const called = harness.emitted.filter((event) => event.name === 'sessions:tool-called');
    expect(called).toEqual([
      {
        name: 'sessions:tool-called',
        payload: {
          sessionId,
          turn: 1,
          call: expect.objectContaining({
            callId: 'mine',
            name: 'terminal',
            decision: 'allowed',
            isInterrupted: false,
          }) as unknown,
        },
      },
    ]);
    expect(statuses[0]).toBe('working');
    expect(statuses.slice(0, -1).every((status) => status === 'working')).toBe(true);
    expect(statuses.at(-1)).toBe('idle');
    expect(harness.sessions.get(sessionId).lastToolCall).toMatchObject({
      callId: 'mine',
      name: 'terminal',
      summary: 'echo hi',
      isOk: true,
    });
    const log = readFileSync(path.join(harness.base, 'vigil', 'sessions', `${sessionId}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(log.map((record) => record.type)).toEqual(['opened', 'turn-began', 'call', 'result', 'turn-ended']);
  });

  it('never works in the home folder itself: a session rooted there is refused, with no checkpoint (issue 30, C2)', async () => {
    const atHome = (await harness.sessions.open({ agent: 'home', roots: [harness.home] })).id;
    const [outcome] = await harness.executor.execute(
      atHome,
      [{ name: 'write_file', arguments: { path: 'note.txt', content: 'x' } }],
      { concurrent: false },
    );
    expect(outcome).toMatchObject({
      result: { ok: false, error: { code: 'forbidden_path' } },
      checkpoints: [],
    });
    expect(outcome?.result.ok === false && outcome.result.error.message).toMatch(/Start in a project folder/u);
    expect(harness.gitLog(harness.home)).toEqual([]);
  });

  it('stops a terminal command at its timeout and reports it', async () => {
    const [outcome] = await harness.executor.execute(
      sessionId,
      [{ name: 'terminal', arguments: { command: 'sleep 600', timeout_ms: 200 } }],
      { concurrent: false },
    );
    expect(outcome?.result).toMatchObject({ ok: true, value: { timed_out: true, exit_code: null } });
  });
});

describe('a supervisor killed while a call runs', () => {
  it('leaves the call on record as interrupted, with the checkpoint it took first', async () => {
    const { dir: base, remove } = await makeTempDir('vigil-exec-crash-');
    try {
      for (const folder of ['home', 'ws']) mkdirSync(path.join(base, folder));
      writeFileSync(path.join(base, 'ws', 'a.txt'), 'a\n');
      const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-support', 'executor-crash-child.ts');
      const child = spawn(process.execPath, ['--import', 'tsx', script, base], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let sessionId = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        sessionId = /session (\S+)/u.exec(chunk)?.[1] ?? sessionId;
      });
      const logFile = (): string => path.join(base, 'vigil', 'sessions', `${sessionId}.jsonl`);
      // The command deletes a.txt first: once it is gone, the call is running.
      await new Promise<void>((resolve) => {
        const poll = (): void => {
          if (sessionId !== '' && !existsSync(path.join(base, 'ws', 'a.txt'))) resolve();
          else setTimeout(poll, 20);
        };
        poll();
      });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      const sessions = new SessionRegistry({
        directory: path.join(base, 'vigil', 'sessions'),
        logger: silentLogger,
        events: { emit: () => undefined },
      });
      await sessions.load();
      const [call] = (await sessions.history(sessionId)).turns.flatMap((turn) => turn.entries);
      expect(call).toMatchObject({
        kind: 'tool-call',
        callId: 'long',
        decision: 'allowed',
        isInterrupted: true,
        result: { ok: false, error: { code: 'cancelled' } },
        checkpoints: [{ kind: 'created' }],
      });
      expect(readFileSync(logFile(), 'utf8')).toContain('"type":"call"');
      await sessions.dispose();
    } finally {
      await remove();
    }
  }, 60_000);
});
