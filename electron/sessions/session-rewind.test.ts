import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionRewoundEvent } from './session-types';
import { createAgentHarness, type AgentHarness } from '../executor/test-support/agent-harness';
import { silentLogger } from '../logging/logger';
import { SessionRegistry } from './session-registry';

/** Turn undo (design §4) on real checkpoints: preview, then code, conversation or both. */
let harness: AgentHarness;
let sessionId: string;

function file(relative: string): string | undefined {
  const target = path.join(harness.workspace, relative);
  return existsSync(target) ? readFileSync(target, 'utf8') : undefined;
}

async function turn(message: string, calls: { name: string; arguments: unknown }[]): Promise<void> {
  await harness.sessions.beginTurn(sessionId, { userMessage: message });
  const outcomes = await harness.executor.execute(sessionId, calls, { concurrent: false });
  expect(outcomes.map((outcome) => outcome.result.ok)).toEqual(calls.map(() => true));
  await harness.sessions.appendMessage(sessionId, { role: 'assistant', text: `did ${message}` });
  await harness.sessions.endTurn(sessionId);
}

beforeEach(async () => {
  harness = await createAgentHarness({ files: { 'a.txt': 'v0\n', 'keep.txt': 'untouched\n' } });
  sessionId = (await harness.sessions.open({ agent: 'rewinder', roots: [harness.workspace] })).id;
  await turn('one', [
    { name: 'write_file', arguments: { path: 'a.txt', content: 'v1\n' } },
    { name: 'write_file', arguments: { path: 'new1.txt', content: 'n1\n' } },
  ]);
  await turn('two', [
    { name: 'write_file', arguments: { path: 'a.txt', content: 'v2\n' } },
    { name: 'write_file', arguments: { path: 'new2.txt', content: 'n2\n' } },
  ]);
  await turn('three', [
    { name: 'patch', arguments: { path: 'a.txt', old_string: 'v2', new_string: 'v3' } },
    { name: 'terminal', arguments: { command: 'rm new1.txt' } },
  ]);
});
afterEach(async () => {
  await harness.close();
});

describe('turn undo', () => {
  it('previews a code rewind without changing anything, then applies it with a pre-rollback snapshot', async () => {
    const plan = await harness.sessions.planRewind(sessionId, 2, 'code');
    expect(plan).toMatchObject({ sessionId, toTurn: 2, mode: 'code', turns: [], problems: [] });
    expect(plan.directories).toHaveLength(1);
    const [directory] = plan.directories;
    expect(directory).toMatchObject({ directory: harness.workspace, checkpointTurn: 2 });
    expect(Object.fromEntries((directory?.files ?? []).map((entry) => [entry.path, entry.action]))).toEqual({
      'a.txt': 'restore',
      'new1.txt': 'recreate',
      'new2.txt': 'delete',
    });
    expect(file('a.txt')).toBe('v3\n');

    const outcome = await harness.sessions.rewind(sessionId, 2, 'code', { planId: plan.planId });
    expect(file('a.txt')).toBe('v1\n');
    expect(file('new1.txt')).toBe('n1\n');
    expect(file('new2.txt')).toBeUndefined();
    expect(file('keep.txt')).toBe('untouched\n');
    expect(outcome.rewoundTurns).toEqual([]);
    const pre = outcome.restored[0]?.preRollbackCheckpointId ?? '';
    expect(harness.gitLog(harness.workspace)[0]).toMatchObject({
      id: pre,
      subject: expect.stringContaining('pre-rollback snapshot') as unknown,
    });
    expect(harness.contentOf(pre, 'a.txt')).toBe('v3\n');
    expect((await harness.sessions.history(sessionId)).turns.every((entry) => !entry.isRewound)).toBe(true);
  });

  it('rewinds the conversation only: turns marked rewound, never erased, files untouched, the agent told', async () => {
    const events: SessionRewoundEvent[] = [];
    const stop = harness.sessions.onRewound((event) => events.push(event));
    const outcome = await harness.sessions.rewind(sessionId, 2, 'conversation');
    stop();
    expect(outcome).toMatchObject({ rewoundTurns: [2, 3], restored: [] });
    expect(file('a.txt')).toBe('v3\n');
    const history = await harness.sessions.history(sessionId);
    expect(history.turns.map((entry) => [entry.turn, entry.isRewound, entry.entries.length])).toEqual([
      [1, false, 4],
      [2, true, 4],
      [3, true, 4],
    ]);
    expect(events).toEqual([
      {
        sessionId,
        rewind: expect.objectContaining({ toTurn: 2, mode: 'conversation', rewoundTurns: [2, 3] }) as unknown,
        history,
      },
    ]);
    expect(harness.emitted.some((event) => event.name === 'sessions:rewound')).toBe(true);
    expect(await harness.sessions.beginTurn(sessionId)).toEqual({ turn: 4 });

    const reloaded = new SessionRegistry({
      directory: path.join(harness.base, 'vigil', 'sessions'),
      logger: silentLogger,
      events: { emit: () => undefined },
    });
    await reloaded.load();
    expect((await reloaded.history(sessionId)).turns.map((entry) => entry.isRewound)).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect((await reloaded.history(sessionId)).rewinds).toHaveLength(1);
    await reloaded.dispose();
  });

  it('rewinds both, to the start of the first turn', async () => {
    const outcome = await harness.sessions.rewind(sessionId, 1, 'both');
    expect(outcome.rewoundTurns).toEqual([1, 2, 3]);
    expect(file('a.txt')).toBe('v0\n');
    expect(file('new1.txt')).toBeUndefined();
    expect(file('new2.txt')).toBeUndefined();
    expect(file('keep.txt')).toBe('untouched\n');
  });

  it('refuses a rewind whose preview is stale, and changes nothing', async () => {
    const plan = await harness.sessions.planRewind(sessionId, 2, 'both');
    writeFileSync(path.join(harness.workspace, 'a.txt'), 'edited by hand\n');
    await expect(harness.sessions.rewind(sessionId, 2, 'both', { planId: plan.planId })).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(file('a.txt')).toBe('edited by hand\n');
    expect((await harness.sessions.history(sessionId)).turns.some((entry) => entry.isRewound)).toBe(false);
  });

  it("undoes only what this session changed: another session's work in the same folder stays", async () => {
    const other = (await harness.sessions.open({ agent: 'sibling', roots: [harness.workspace] })).id;
    const [sibling] = await harness.executor.execute(
      other,
      [
        { name: 'write_file', arguments: { path: 'keep.txt', content: 'sibling\n' } },
        { name: 'write_file', arguments: { path: 'sibling.txt', content: 's\n' } },
      ],
      { concurrent: true },
    );
    expect(sibling?.result.ok).toBe(true);
    const plan = await harness.sessions.planRewind(sessionId, 2, 'code');
    expect(plan.directories[0]?.files.map((entry) => entry.path).sort()).toEqual(['a.txt', 'new1.txt', 'new2.txt']);
    await harness.sessions.rewind(sessionId, 2, 'code');
    expect(file('a.txt')).toBe('v1\n');
    expect(file('keep.txt')).toBe('sibling\n');
    expect(file('sibling.txt')).toBe('s\n');
  });

  it('keeps a file of the rewound turns that another session changed later, with who and when, unless it is chosen', async () => {
    const other = (await harness.sessions.open({ agent: 'sibling', roots: [harness.workspace] })).id;
    await harness.sessions.beginTurn(other, { userMessage: 'sibling edits' });
    const [sibling] = await harness.executor.execute(
      other,
      [
        { name: 'write_file', arguments: { path: 'a.txt', content: 'sibling\n' } },
        { name: 'write_file', arguments: { path: 'new2.txt', content: 'sibling too\n' } },
      ],
      { concurrent: false },
    );
    expect(sibling?.result.ok).toBe(true);
    const plan = await harness.sessions.planRewind(sessionId, 2, 'code');
    const files = plan.directories[0]?.files ?? [];
    expect(files.filter((entry) => entry.isOthers === true).map((entry) => entry.path)).toEqual(['a.txt', 'new2.txt']);
    expect(files.find((entry) => entry.path === 'a.txt')).toMatchObject({
      changedBy: { kind: 'session', sessionId: other, agent: 'sibling', turn: 1 },
      changedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/u) as unknown,
    });
    // By default theirs stay: only this session's own new1.txt comes back.
    await harness.sessions.rewind(sessionId, 2, 'code', { planId: plan.planId });
    expect(file('a.txt')).toBe('sibling\n');
    expect(file('new2.txt')).toBe('sibling too\n');
    expect(file('new1.txt')).toBe('n1\n');
    // Chosen, a file of theirs goes back too.
    const again = await harness.sessions.planRewind(sessionId, 2, 'code');
    await harness.sessions.rewind(sessionId, 2, 'code', {
      planId: again.planId,
      overwrite: [{ directory: harness.workspace, path: 'a.txt' }],
    });
    expect(file('a.txt')).toBe('v1\n');
    expect(file('new2.txt')).toBe('sibling too\n');
  });

  it('lists the memory writes of the rewound turns in the plan, and the rewind undoes them', async () => {
    await harness.close();
    harness = await createAgentHarness({ files: { 'a.txt': 'v0\n' }, withMemory: true });
    sessionId = (await harness.sessions.open({ agent: 'rewinder', roots: [harness.workspace] })).id;
    await turn('one', [{ name: 'write_file', arguments: { path: 'a.txt', content: 'v1\n' } }]);
    await turn('two', [
      { name: 'memory', arguments: { action: 'add', target: 'memory', content: 'Build with npm run build.' } },
      { name: 'memory', arguments: { action: 'read', target: 'memory' } },
    ]);
    await turn('three', [
      { name: 'memory', arguments: { action: 'add', target: 'memory', content: 'Test with npm test.' } },
      { name: 'memory', arguments: { action: 'add', target: 'user', content: 'Prefers short answers.' } },
    ]);

    // Turn 3's memory writes: listed as the memory folder's files, going back to turn 3's checkpoint (MEMORY.md
    // as turn 2 left it; USER.md, created by turn 3, deleted).
    const plan = await harness.sessions.planRewind(sessionId, 3, 'code');
    expect(plan.problems).toEqual([]);
    const memoryPlan = plan.directories.find((directory) => directory.directory !== harness.workspace);
    expect(memoryPlan).toMatchObject({ checkpointTurn: 3, directory: expect.stringMatching(/memories$/u) as unknown });
    const memories = memoryPlan?.directory ?? '';
    const memoryFile = path.join(memories, 'MEMORY.md');
    expect(readFileSync(memoryFile, 'utf8').trimEnd()).toBe('Build with npm run build.\n§\nTest with npm test.');
    expect(Object.fromEntries((memoryPlan?.files ?? []).map((entry) => [entry.path, entry.action]))).toEqual({
      'MEMORY.md': 'restore',
      'USER.md': 'delete',
    });
    expect(readFileSync(memoryFile, 'utf8').trimEnd()).toBe('Build with npm run build.\n§\nTest with npm test.');

    // Back to turn 1: the write of a.txt and every memory write since go back, in one plan.
    const all = await harness.sessions.planRewind(sessionId, 1, 'both');
    expect(all.problems).toEqual([]);
    expect(all.directories.map((directory) => directory.directory).sort()).toEqual(
      [harness.workspace, memories].sort(),
    );
    await harness.sessions.rewind(sessionId, 1, 'both', { planId: all.planId });
    expect(file('a.txt')).toBe('v0\n');
    expect(existsSync(memoryFile)).toBe(false);
    expect(existsSync(path.join(memories, 'USER.md'))).toBe(false);
  });

  it('restores the whole folder, and says so, after a command whose targets are not all known', async () => {
    await turn('four', [{ name: 'terminal', arguments: { command: 'git checkout . 2>/dev/null || true' } }]);
    const plan = await harness.sessions.planRewind(sessionId, 4, 'code');
    expect(plan.directories[0]?.problems).toEqual([expect.stringContaining('the whole folder goes back') as unknown]);
  });

  it('names the turns a session has when asked for another', async () => {
    await expect(harness.sessions.planRewind(sessionId, 9, 'code')).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('1–3') as unknown,
    });
  });

  it('rewinds the code of an ended session (closed cleanly, as Claude Code does at exit), and refuses only its conversation', async () => {
    await harness.sessions.close(sessionId);
    await expect(harness.sessions.planRewind(sessionId, 2, 'both')).rejects.toMatchObject({
      code: 'unsupported',
      message: expect.stringContaining('Choose "Code only"') as unknown,
    });
    await expect(harness.sessions.rewind(sessionId, 2, 'conversation')).rejects.toMatchObject({ code: 'unsupported' });
    expect(file('a.txt')).toBe('v3\n');

    const plan = await harness.sessions.planRewind(sessionId, 2, 'code');
    const outcome = await harness.sessions.rewind(sessionId, 2, 'code', { planId: plan.planId });
    expect(file('a.txt')).toBe('v1\n');
    expect(file('new2.txt')).toBeUndefined();
    const pre = outcome.restored[0]?.preRollbackCheckpointId ?? '';
    expect(harness.gitLog(harness.workspace)[0]?.id).toBe(pre);
    expect(harness.contentOf(pre, 'a.txt')).toBe('v3\n');
    const history = await harness.sessions.history(sessionId);
    expect(history.rewinds.map((rewind) => rewind.mode)).toEqual(['code']);
    expect(harness.sessions.summary(sessionId).status).toBe('ended');
  });

  it('rewinds a disconnected session, code and conversation', async () => {
    await harness.sessions.disconnect(sessionId, 'the agent went away');
    const outcome = await harness.sessions.rewind(sessionId, 3, 'both');
    expect(outcome.rewoundTurns).toEqual([3]);
    expect(file('a.txt')).toBe('v2\n');
    expect(file('new1.txt')).toBe('n1\n');
  });
});
