import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolCallOutcome, ToolCallRequest } from './executor-types';
import { createAgentHarness, type AgentHarness } from './test-support/agent-harness';

/**
 * Seed 002: a tool call that is then blocked must never touch checkpoint state — no ghost
 * checkpoint, no consumed per-turn dedup slot — on the sequential path and on the concurrent one.
 * Every case runs in both modes and checks the store with git's own CLI.
 */
const modes = [
  { name: 'sequential', concurrent: false },
  { name: 'concurrent', concurrent: true },
] as const;

const initialFiles = { 'src/a.ts': 'old a\n', 'src/locked.ts': 'locked v1\n', 'secrets/key.pem': 'KEY\n' };

const denyRules = {
  policy: {
    rules: [
      { effect: 'deny', tool: ['write_file', 'patch'], path: 'secrets/**' },
      { effect: 'deny', tool: 'patch', path: 'src/locked.ts' },
      { effect: 'deny', tool: 'terminal', command: 'rm' },
    ],
  },
};

const write = (file: string, content: string): ToolCallRequest => ({
  name: 'write_file',
  arguments: { path: file, content },
});
const patch = (file: string, from: string, to: string): ToolCallRequest => ({
  name: 'patch',
  arguments: { path: file, old_string: from, new_string: to },
});
const terminal = (command: string): ToolCallRequest => ({ name: 'terminal', arguments: { command } });

let harness: AgentHarness;
let sessionId: string;

beforeEach(async () => {
  harness = await createAgentHarness({ files: initialFiles });
  harness.configure(denyRules);
  sessionId = (await harness.sessions.open({ agent: 'seed-002', roots: [harness.workspace] })).id;
  await harness.sessions.beginTurn(sessionId, { userMessage: 'go' });
});
afterEach(async () => {
  await harness.close();
});

function read(relative: string): string {
  return readFileSync(path.join(harness.workspace, relative), 'utf8');
}

function expectRefusedWithoutCheckpoint(outcome: ToolCallOutcome | undefined, decision: string): void {
  expect(outcome).toMatchObject({ decision, checkpoints: [], checkpointProblems: [], result: { ok: false } });
}

describe.each(modes)('seed 002 on the $name path', ({ concurrent }) => {
  it('a blocked write_file creates no checkpoint and leaves the slot to the next allowed write', async () => {
    const [blocked] = await harness.executor.execute(sessionId, [write('secrets/key.pem', 'stolen')], { concurrent });
    expectRefusedWithoutCheckpoint(blocked, 'blocked');
    expect(blocked?.result).toMatchObject({ ok: false, error: { code: 'denied' } });
    expect(read('secrets/key.pem')).toBe('KEY\n');
    expect(harness.gitLog(harness.workspace)).toEqual([]);

    const [allowed] = await harness.executor.execute(sessionId, [write('src/a.ts', 'new a\n')], { concurrent });
    expect(allowed).toMatchObject({
      decision: 'allowed',
      result: { ok: true },
      checkpoints: [{ directory: harness.workspace, kind: 'created' }],
    });
    const log = harness.gitLog(harness.workspace);
    expect(log).toEqual([
      {
        id: allowed?.checkpoints[0]?.checkpointId,
        subject: 'before write_file',
        session: sessionId,
        turn: 1,
        tool: 'write_file',
      },
    ]);
    expect(harness.contentOf(log[0]?.id ?? '', 'src/a.ts')).toBe('old a\n');
    expect(read('src/a.ts')).toBe('new a\n');
  });

  it('a blocked patch creates no checkpoint and leaves the slot to the next allowed patch', async () => {
    const [blocked] = await harness.executor.execute(sessionId, [patch('src/locked.ts', 'v1', 'v2')], { concurrent });
    expectRefusedWithoutCheckpoint(blocked, 'blocked');
    expect(read('src/locked.ts')).toBe('locked v1\n');
    expect(harness.gitLog(harness.workspace)).toEqual([]);

    const [allowed] = await harness.executor.execute(sessionId, [patch('src/a.ts', 'old', 'patched')], { concurrent });
    expect(allowed).toMatchObject({ decision: 'allowed', result: { ok: true }, checkpoints: [{ kind: 'created' }] });
    const log = harness.gitLog(harness.workspace);
    expect(log.map((entry) => [entry.subject, entry.session, entry.turn])).toEqual([['before patch', sessionId, 1]]);
    expect(harness.contentOf(log[0]?.id ?? '', 'src/a.ts')).toBe('old a\n');
  });

  it('a blocked destructive terminal command creates no checkpoint and leaves the slot to the next allowed one', async () => {
    const [blocked] = await harness.executor.execute(sessionId, [terminal('rm -f src/a.ts')], { concurrent });
    expectRefusedWithoutCheckpoint(blocked, 'blocked');
    expect(existsSync(path.join(harness.workspace, 'src/a.ts'))).toBe(true);
    expect(harness.gitLog(harness.workspace)).toEqual([]);

    const [allowed] = await harness.executor.execute(sessionId, [terminal('mv src/a.ts src/moved.ts')], { concurrent });
    expect(allowed).toMatchObject({
      decision: 'allowed',
      result: { ok: true, value: { exit_code: 0 } },
      checkpoints: [{ kind: 'created' }],
    });
    const log = harness.gitLog(harness.workspace);
    expect(log.map((entry) => [entry.subject, entry.session, entry.turn, entry.tool])).toEqual([
      ['before terminal: mv src/a.ts src/moved.ts', sessionId, 1, 'terminal'],
    ]);
    expect(harness.filesOf(log[0]?.id ?? '')).toContain('src/a.ts');
  });

  it('a destructive command a human denies creates no checkpoint', async () => {
    const stop = harness.events.on('approvals:requested', ({ approval }) => {
      harness.approvals.decide(approval.id, 'deny', 'window');
    });
    const [denied] = await harness.executor.execute(sessionId, [terminal('git push --force; mv src src2')], {
      concurrent,
    });
    stop();
    expectRefusedWithoutCheckpoint(denied, 'denied');
    expect(denied?.result).toMatchObject({
      ok: false,
      error: { code: 'denied', message: expect.stringContaining('a person denied it') as unknown },
    });
    expect(existsSync(path.join(harness.workspace, 'src'))).toBe(true);
    expect(harness.gitLog(harness.workspace)).toEqual([]);
  });

  it('a blocked write followed by an allowed write in the same batch and folder: the allowed one gets the checkpoint', async () => {
    const outcomes = await harness.executor.execute(
      sessionId,
      [
        write('secrets/key.pem', 'stolen'),
        patch('src/locked.ts', 'v1', 'v2'),
        terminal('rm src/a.ts'),
        write('src/a.ts', 'allowed\n'),
      ],
      { concurrent },
    );
    expect(outcomes.map((outcome) => outcome.decision)).toEqual(['blocked', 'blocked', 'blocked', 'allowed']);
    for (const refused of outcomes.slice(0, 3)) expect(refused.checkpoints).toEqual([]);
    const allowed = outcomes[3];
    expect(allowed?.checkpoints).toEqual([
      {
        directory: harness.workspace,
        checkpointId: expect.stringMatching(/^[0-9a-f]{40}$/u) as unknown,
        kind: 'created',
      },
    ]);
    const log = harness.gitLog(harness.workspace);
    expect(log).toEqual([
      {
        id: allowed?.checkpoints[0]?.checkpointId,
        subject: 'before write_file',
        session: sessionId,
        turn: 1,
        tool: 'write_file',
      },
    ]);
    expect(harness.contentOf(log[0]?.id ?? '', 'src/a.ts')).toBe('old a\n');
    expect(read('src/a.ts')).toBe('allowed\n');
    expect(read('secrets/key.pem')).toBe('KEY\n');
  });

  it('a call with a dropped argument (seed 004) is invalid, writes nothing and takes no checkpoint', async () => {
    const [invalid, allowed] = await harness.executor.execute(
      sessionId,
      [{ name: 'write_file', arguments: { path: 'src/new.ts' } }, write('src/a.ts', 'x')],
      { concurrent },
    );
    expectRefusedWithoutCheckpoint(invalid, 'invalid');
    expect(invalid?.result).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', details: { field: 'content', missing: ['content'] } },
    });
    expect(existsSync(path.join(harness.workspace, 'src/new.ts'))).toBe(false);
    expect(allowed?.checkpoints).toHaveLength(1);
    expect(harness.gitLog(harness.workspace)).toHaveLength(1);
  });

  it('takes at most one checkpoint per folder per turn, and a new one in the next turn', async () => {
    const first = await harness.executor.execute(
      sessionId,
      [write('src/a.ts', '1'), write('src/b.ts', '2'), terminal('rm src/b.ts')],
      { concurrent: false },
    );
    expect(first.map((outcome) => outcome.checkpoints.length)).toEqual([1, 0, 0]);
    const again = await harness.executor.execute(sessionId, [patch('src/a.ts', '1', '3')], { concurrent });
    expect(again[0]?.checkpoints).toEqual([]);
    await harness.sessions.beginTurn(sessionId);
    const next = await harness.executor.execute(sessionId, [write('src/a.ts', '4')], { concurrent });
    expect(next[0]).toMatchObject({ turn: 2, checkpoints: [{ kind: 'created' }] });
    expect(harness.gitLog(harness.workspace).map((entry) => entry.turn)).toEqual([2, 1]);
  });

  it('a failing checkpoint holds the call for a person: denied, it writes nothing; "allow" runs it, saying so', async () => {
    rmSync(path.join(harness.base, 'vigil', 'checkpoints'), { recursive: true, force: true });
    writeFileSync(path.join(harness.base, 'vigil', 'checkpoints'), 'not a folder');
    const asked: string[] = [];
    const stop = harness.events.on('approvals:requested', ({ approval }) => {
      asked.push(approval.reason);
      harness.approvals.decide(approval.id, 'deny', 'window');
    });
    const [held] = await harness.executor.execute(sessionId, [write('src/a.ts', 'not written\n')], { concurrent });
    stop();
    expect(asked).toEqual([expect.stringMatching(/^Vigil could not checkpoint before this change/) as unknown]);
    expect(held).toMatchObject({
      decision: 'denied',
      checkpoints: [],
      checkpointProblems: [expect.stringContaining('before write_file failed') as unknown],
      result: { ok: false, error: { code: 'denied', details: { checkpointFailed: true } } },
    });
    expect(read('src/a.ts')).toBe('old a\n');
    expect(
      harness.emitted.some(
        (event) => event.name === 'app:problem-reported' && JSON.stringify(event.payload).includes('checkpoint'),
      ),
    ).toBe(true);

    harness.configure({ ...denyRules, checkpoints: { onFailure: 'allow' } });
    const [ran] = await harness.executor.execute(sessionId, [write('src/a.ts', 'still written\n')], { concurrent });
    expect(ran).toMatchObject({ decision: 'allowed', result: { ok: true }, checkpoints: [] });
    expect(ran?.checkpointProblems.at(-1)).toMatch(/checkpoints\.onFailure is "allow"/);
    expect(read('src/a.ts')).toBe('still written\n');
  });
});

describe('approvals inside the executor', () => {
  it('denies a dangerous command when nobody answers in time (fail closed), with no checkpoint', async () => {
    harness.configure({ policy: { approvalTimeoutMs: 1000 } });
    const statuses: string[] = [];
    const stop = harness.sessions.onChanged((session) => statuses.push(session.status));
    const [outcome] = await harness.executor.execute(sessionId, [terminal('sudo rm -rf src')], { concurrent: true });
    stop();
    expect(outcome).toMatchObject({
      decision: 'denied',
      checkpoints: [],
      result: { ok: false, error: { code: 'timeout' } },
    });
    expect(statuses).toContain('waiting-approval');
    // The turn is still open once the approval is settled: working, not waiting any more.
    expect(statuses.at(-1)).toBe('working');
    expect(harness.gitLog(harness.workspace)).toEqual([]);
  });

  it('runs an approved destructive command after checkpointing, attributed as asked-allowed', async () => {
    const stop = harness.events.on('approvals:requested', ({ approval }) => {
      expect(approval).toMatchObject({
        sessionId,
        tool: 'terminal',
        summary: 'git push --force || mv src gone',
        cwd: harness.workspace,
      });
      harness.approvals.decide(approval.id, 'allow', 'window');
    });
    const [outcome] = await harness.executor.execute(sessionId, [terminal('git push --force || mv src gone')], {
      concurrent: false,
    });
    stop();
    expect(outcome).toMatchObject({ decision: 'asked-allowed', checkpoints: [{ kind: 'created' }] });
    expect(existsSync(path.join(harness.workspace, 'src'))).toBe(false);
    expect(harness.filesOf(outcome?.checkpoints[0]?.checkpointId ?? '')).toEqual(
      expect.arrayContaining(['src/a.ts', 'src/locked.ts']) as unknown,
    );
  });
});
