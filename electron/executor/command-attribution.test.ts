import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadWriteLedger, type RestorePlan } from '../checkpoints';
import type { ToolCallOutcome } from './executor-types';
import { createAgentHarness, type AgentHarness } from './test-support/agent-harness';

const { createWriteLedger, createWriteRecorder } = await loadWriteLedger();

/**
 * Issue 13, item 1: every file effect of an agent's terminal command is Vigil's change, recorded
 * as the session's through the one write ledger, so a restore plan never calls it "edited
 * outside"; an edit from outside Vigil still is.
 */
let harness: AgentHarness;
let sessionId: string;

beforeEach(async () => {
  harness = await createAgentHarness({
    files: { 'legacy/a.txt': 'a\n', 'legacy/deep/b.txt': 'b\n', 'notes.txt': 'one\n', 'src/app.ts': 'x\n' },
  });
  harness.configure({ policy: {} });
  // A careless person who allows whatever asks.
  harness.events.on('approvals:requested', ({ approval }) =>
    queueMicrotask(() => harness.approvals.decide(approval.id, 'allow', 'window')),
  );
  sessionId = (await harness.sessions.open({ agent: 'alpha', roots: [harness.workspace] })).id;
});
afterEach(async () => {
  await harness.close();
});

async function run(command: string): Promise<ToolCallOutcome> {
  await harness.sessions.beginTurn(sessionId, { userMessage: command });
  const [outcome] = await harness.executor.execute(sessionId, [{ name: 'terminal', arguments: { command } }], {
    concurrent: false,
  });
  await harness.sessions.endTurn(sessionId);
  if (outcome === undefined) throw new Error('no outcome');
  expect(outcome.result.ok, JSON.stringify(outcome.result)).toBe(true);
  return outcome;
}

function entry(plan: RestorePlan, relative: string): RestorePlan['entries'][number] | undefined {
  return plan.entries.find((item) => item.path === relative);
}

describe("a terminal command's effects are the session's", () => {
  it('rm -rf and >> through the terminal tool are not flagged; an append from outside Vigil is', async () => {
    const first = await run('rm -rf legacy');
    const checkpoint = first.checkpoints[0]?.checkpointId ?? '';
    expect(checkpoint).not.toBe('');
    expect(existsSync(path.join(harness.workspace, 'legacy'))).toBe(false);
    await run('echo two >> notes.txt');

    const plan = await harness.restoring.plan(harness.workspace, checkpoint);
    expect(plan.entries.map((item) => `${item.action} ${item.path} ${item.isChangedOutsideAgents}`)).toEqual([
      'recreate legacy/a.txt false',
      'recreate legacy/deep/b.txt false',
      'restore notes.txt false',
    ]);
    expect(plan.changedOutsideAgents).toBe(0);
    expect(entry(plan, 'legacy/a.txt')?.changedBy).toEqual({
      kind: 'session',
      sessionId,
      agent: 'alpha',
      turn: 1,
      tool: 'terminal',
    });
    expect(entry(plan, 'notes.txt')?.changedBy).toEqual({
      kind: 'session',
      sessionId,
      agent: 'alpha',
      turn: 2,
      tool: 'terminal',
    });

    appendFileSync(path.join(harness.workspace, 'notes.txt'), 'three, by hand\n');
    const after = await harness.restoring.plan(harness.workspace, checkpoint);
    expect(entry(after, 'notes.txt')?.isChangedOutsideAgents).toBe(true);
    expect(entry(after, 'notes.txt')?.changedBy).toBeUndefined();
    expect(entry(after, 'legacy/a.txt')?.isChangedOutsideAgents).toBe(false);
    expect(after.changedOutsideAgents).toBe(1);
  });

  it('records what the call changed in its session, with the lines of created files counted', async () => {
    const outcome = await run('rm -rf legacy && printf "1\\n2\\n3\\n" > made.txt');
    const history = await harness.sessions.history(sessionId);
    const call = history.turns[0]?.entries.find((item) => item.kind === 'tool-call');
    expect(call?.kind === 'tool-call' ? call.effects : undefined).toEqual([
      { path: path.join(harness.workspace, 'legacy/a.txt'), change: 'deleted' },
      { path: path.join(harness.workspace, 'legacy/deep/b.txt'), change: 'deleted' },
      { path: path.join(harness.workspace, 'made.txt'), change: 'created', added: 3, removed: 0 },
    ]);
    expect(outcome.callId).toBe(call?.kind === 'tool-call' ? call.callId : '');
    const summary = harness.sessions.list().find((session) => session.id === sessionId);
    expect(summary?.fileCount).toBe(3);
    expect(summary?.files[0]?.path).toBe(path.join(harness.workspace, 'made.txt'));
    expect(summary?.prompt).toBe('rm -rf legacy && printf "1\\n2\\n3\\n" > made.txt');
    // A timeline row's words: the turn's message and its calls, for known sessions and turns only.
    const briefs = await harness.sessions.turns([
      { sessionId, turn: 1 },
      { sessionId, turn: 9 },
      { sessionId: 'ses_gone', turn: 1 },
    ]);
    expect(briefs).toEqual([
      {
        sessionId,
        turn: 1,
        title: 'rm -rf legacy && printf "1\\n2\\n3\\n" > made.txt',
        calls: [
          {
            name: 'terminal',
            summary: 'rm -rf legacy && printf "1\\n2\\n3\\n" > made.txt',
            decision: outcome.decision,
            directories: [harness.workspace],
          },
        ],
        callCount: 1,
        // The turn's own changeset: a command's deletions count files without lines (partly counted).
        effects: [
          {
            path: path.join(harness.workspace, 'legacy/a.txt'),
            change: 'deleted',
            added: 0,
            removed: 0,
            isPartlyCounted: true,
          },
          {
            path: path.join(harness.workspace, 'legacy/deep/b.txt'),
            change: 'deleted',
            added: 0,
            removed: 0,
            isPartlyCounted: true,
          },
          { path: path.join(harness.workspace, 'made.txt'), change: 'created', added: 3, removed: 0 },
        ],
        effectsOmitted: 0,
      },
    ]);
  });

  it("a command Vigil cannot read through is watched over every root: what it wrote is the session's", async () => {
    const first = await run(
      `node -e "require('fs').writeFileSync('src/gen.ts', 'generated\\\\n'); require('fs').rmSync('src/app.ts')"`,
    );
    const plan = await harness.restoring.plan(harness.workspace, first.checkpoints[0]?.checkpointId ?? '');
    expect(
      plan.entries.map(
        (item) => `${item.action} ${item.path} ${item.isChangedOutsideAgents} ${item.changedBy?.kind ?? '-'}`,
      ),
    ).toEqual(['recreate src/app.ts false session', 'delete src/gen.ts false session']);
  });

  it('a file tool records what it wrote, with lines added and removed', async () => {
    await harness.sessions.beginTurn(sessionId, { userMessage: 'edit' });
    const [outcome] = await harness.executor.execute(
      sessionId,
      [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'one\nand two\n' } }],
      { concurrent: false },
    );
    expect(outcome?.result.ok).toBe(true);
    const history = await harness.sessions.history(sessionId);
    const call = history.turns[0]?.entries.find((item) => item.kind === 'tool-call');
    expect(call?.kind === 'tool-call' ? call.effects : undefined).toEqual([
      { path: path.join(harness.workspace, 'notes.txt'), change: 'modified', added: 1, removed: 0 },
    ]);
  });
});

describe('the write recorder', () => {
  it('leaves a version another actor recorded while a command ran as theirs', async () => {
    const dir = path.join(harness.base, 'recorder');
    mkdirSync(dir);
    const ledger = createWriteLedger(path.join(dir, 'written.jsonl'));
    const recorder = createWriteRecorder(harness.checkpoints, ledger);
    const restored = path.join(dir, 'restored.txt');
    const made = path.join(dir, 'made.txt');
    const since = Date.now();
    writeFileSync(restored, 'written by a restore from the app\n');
    await ledger.record([restored], { kind: 'app' });
    writeFileSync(made, 'made by the command\n');
    const session = { kind: 'session', sessionId: 's', agent: 'alpha', turn: 1, tool: 'terminal' } as const;
    const { readFileIdentity } = await import('../files/file-identity');
    const own = await recorder.recordObserved(
      [
        { path: restored, identity: await readFileIdentity(restored) },
        { path: made, identity: await readFileIdentity(made) },
      ],
      session,
      since,
    );
    expect(own).toEqual([made]);
    const view = await ledger.view();
    expect(view(restored, await readFileIdentity(restored))?.actor).toEqual({ kind: 'app' });
    expect(view(made, await readFileIdentity(made))?.actor).toEqual(session);
  });
});
