import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallName, CallRequest, CallResponse } from '../../shared/contract';
import { actorOfCheckpoint } from '../../shared/contract/actor-model';
import { dirHash } from '../git-store';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import type { CallContext } from '../transport/call-handlers';
import { createCore, type Core } from './create-core';

/**
 * Issue 13, item 1: the app's and the CLI's own changes carry their actor ("Checkpoint now", a
 * restore and its restore point, memory writes and adoption, a prune), so none of them reads
 * "outside any session"; an agent's memory write is its session's, before and after.
 */
const app: CallContext = { transport: 'websocket', clientId: 'page', peer: 'page' };
const cli: CallContext = { transport: 'http', clientId: 'relay' };

let temp: { dir: string; remove: () => Promise<void> };
let project: string;
let core: Core;

async function call<C extends CallName>(
  channel: C,
  payload: CallRequest<C>,
  context: CallContext,
): Promise<CallResponse<C>> {
  const result = await core.router.dispatch(channel, payload, context);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as CallResponse<C>;
}

/** Subject, `Vigil-Actor` and `Vigil-Session` of a directory's checkpoints, newest first, as git's own CLI reads them. */
function trailers(dir: string): string[] {
  const format =
    '%s|%(trailers:key=Vigil-Actor,valueonly,separator=)|%(trailers:key=Vigil-Session,valueonly,separator=)';
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  const output = execFileSync(
    'git',
    [`--git-dir=${core.checkpoints.gitdir}`, 'log', `--format=${format}`, `refs/vigil/${dirHash(dir)}`],
    { encoding: 'utf8', env },
  );
  return output.split('\n').filter((line) => line.trim() !== '');
}

beforeEach(async () => {
  temp = await makeTempDir('vigil-actors-');
  project = path.join(temp.dir, 'project');
  await mkdir(project, { recursive: true });
  await writeFile(path.join(project, 'notes.txt'), 'start\n');
  core = await createCore({
    home: path.join(temp.dir, 'home'),
    logger: silentLogger,
    env: { HOME: path.join(temp.dir, 'user'), HERMES_HOME: path.join(temp.dir, 'no-hermes') },
  });
});
afterEach(async () => {
  await core.dispose();
  await temp.remove();
});

describe("the app's and the CLI's changes carry their actor", () => {
  it('"Checkpoint now" from the page is the app\'s; vigil checkpoint is the CLI\'s; both say so in a git trailer', async () => {
    const byApp = await call('checkpoints:create', { dir: project }, app);
    if (byApp.kind !== 'created') throw new Error('no checkpoint');
    expect(actorOfCheckpoint(byApp.checkpoint)).toEqual({ kind: 'app' });
    await writeFile(path.join(project, 'notes.txt'), 'changed\n');
    const byCli = await call('checkpoints:create', { dir: project, reason: 'before my refactor' }, cli);
    if (byCli.kind !== 'created') throw new Error('no checkpoint');
    expect(actorOfCheckpoint(byCli.checkpoint)).toEqual({ kind: 'cli' });
    expect(trailers(project)).toEqual(['before my refactor|cli|', 'manual checkpoint|app|']);
  });

  it("a restore's restore point and its writes are the app's; its undo from the CLI is the CLI's", async () => {
    const first = await call('checkpoints:create', { dir: project }, app);
    if (first.kind !== 'created') throw new Error('no checkpoint');
    await writeFile(path.join(project, 'notes.txt'), 'edited in an editor\n');
    const plan = await call('checkpoints:plan-restore', { dir: project, checkpoint: first.checkpoint.id }, app);
    expect(plan.entries.map((entry) => [entry.path, entry.isChangedOutsideAgents])).toEqual([['notes.txt', true]]);
    const restored = await call(
      'checkpoints:restore',
      { dir: project, checkpoint: first.checkpoint.id, fingerprint: plan.fingerprint },
      app,
    );
    const point = (await call('checkpoints:list', { dir: project, limit: 1 }, app)).entries[0];
    expect(point?.id).toBe(restored.preRollback.id);
    expect(point === undefined ? undefined : actorOfCheckpoint(point)).toEqual({ kind: 'app' });
    // Undoing it: the file now holds the restore's version, which the app wrote, so it is not "edited outside".
    const undo = await call('checkpoints:plan-restore', { dir: project, checkpoint: restored.preRollback.id }, cli);
    expect(undo.entries.map((entry) => [entry.path, entry.isChangedOutsideAgents, entry.changedBy])).toEqual([
      ['notes.txt', false, { kind: 'app' }],
    ]);
    const undone = await call(
      'checkpoints:restore',
      { dir: project, checkpoint: restored.preRollback.id, fingerprint: undo.fingerprint },
      cli,
    );
    const undoPoint = (await call('checkpoints:list', { dir: project, limit: 1 }, cli)).entries[0];
    expect(undoPoint?.id).toBe(undone.preRollback.id);
    expect(undoPoint === undefined ? undefined : actorOfCheckpoint(undoPoint)).toEqual({ kind: 'cli' });
  });

  it("memory written from the CLI and adopted in the app are theirs, before and after; an agent's memory write is its session's", async () => {
    const dir = core.paths.memories;
    await call(
      'memory:mutate',
      { dir, target: 'memory', operation: { action: 'add', content: 'the CLI added this' } },
      cli,
    );
    const session = await core.sessions.open({ agent: 'alpha', roots: [project] });
    await core.sessions.beginTurn(session.id, { userMessage: 'remember it' });
    const [outcome] = await core.executor.execute(
      session.id,
      [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: 'alpha remembers' } }],
      { concurrent: false },
    );
    expect(outcome?.result.ok).toBe(true);
    await core.sessions.endTurn(session.id);
    await writeFile(path.join(dir, 'USER.md'), 'free-form notes\nwritten by hand');
    const proposal = await call('memory:propose-adoption', { dir, target: 'user' }, app);
    await call(
      'memory:adopt',
      { dir, target: 'user', basis: proposal.basis, entries: ['free-form notes', 'written by hand'] },
      app,
    );
    await (await core.services.memory()).settled();
    const entries = (await call('checkpoints:list', { dir, limit: 50 }, app)).entries;
    const byReason = (reason: string): string[] =>
      entries.filter((entry) => entry.reason === reason).map((entry) => JSON.stringify(actorOfCheckpoint(entry)));
    expect(byReason('after memory: add')).toEqual(
      expect.arrayContaining([
        JSON.stringify({ kind: 'cli' }),
        JSON.stringify({ kind: 'session', sessionId: session.id, agent: 'alpha', turn: 1, tool: 'memory' }),
      ]),
    );
    // The first write had nothing to keep yet (a "before" checkpoint only when the folder changed): it is the CLI's.
    expect(byReason('before memory: add')).toEqual([JSON.stringify({ kind: 'cli' })]);
    expect(byReason('after memory: adopt')).toEqual([JSON.stringify({ kind: 'app' })]);
    expect(
      entries.some((entry) => entry.attribution.sessionId === undefined && entry.attribution.actor === undefined),
    ).toBe(false);
  });
});
