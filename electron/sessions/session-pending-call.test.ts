import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PendingToolCall } from '../../shared/contract/pending-call-contract';
import type { SessionSummary } from '../../shared/contract/sessions-contract';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { SessionRegistry } from './session-registry';

let base: string;
let remove: () => Promise<void>;
let sessions: SessionRegistry;

const asking: PendingToolCall = {
  callId: 'toolu_1',
  name: 'Bash',
  turn: 1,
  summary: 'touch asked.txt',
  at: '2026-05-01T12:00:00.000Z',
  isAsking: true,
  reason: 'the test asks',
  agentName: 'Claude Code',
};

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-pending-'));
  await mkdir(path.join(base, 'ws'));
  sessions = new SessionRegistry({
    directory: path.join(base, 'sessions'),
    logger: silentLogger,
    events: { emit: () => undefined },
  });
  await sessions.load();
});
afterEach(async () => {
  await sessions.dispose();
  await remove();
});

/** A session with its first turn open. */
async function openWithTurn(): Promise<string> {
  const { id } = await sessions.open({ agent: 'claude-code', roots: [path.join(base, 'ws')] });
  await sessions.beginTurn(id);
  return id;
}

/** Records a call of a session with its result, as the hooks do. */
async function recordCall(id: string, callId: string): Promise<void> {
  const seq = sessions.nextSeq(id);
  const at = new Date().toISOString();
  await sessions.record(id, [
    {
      type: 'call',
      at,
      turn: 1,
      seq,
      callId,
      name: 'Bash',
      arguments: {},
      decision: 'allowed',
      checkpoints: [],
      checkpointProblems: [],
      touched: [],
    },
    { type: 'result', at, seq, result: { ok: true, value: null }, durationMs: 0 },
  ]);
}

describe('a pending call in the session registry', () => {
  it('shows in the summary and its sessions:changed; an asking one makes the session wait for approval', async () => {
    const id = await openWithTurn();
    const seen: SessionSummary[] = [];
    const stop = sessions.onChanged((session) => seen.push(session));
    sessions.setPendingCall(id, asking);
    expect(sessions.get(id)).toMatchObject({ status: 'waiting-approval', pendingCall: asking });
    expect(seen.at(-1)).toMatchObject({ status: 'waiting-approval', pendingCall: asking });
    sessions.setPendingCall(id, { ...asking, callId: 'toolu_2', isAsking: false });
    expect(sessions.get(id)).toMatchObject({ status: 'working', pendingCall: { callId: 'toolu_2' } });
    stop();
  });

  it('ends when its own call is recorded, not another one', async () => {
    const id = await openWithTurn();
    sessions.setPendingCall(id, asking);
    await recordCall(id, 'toolu_0');
    expect(sessions.get(id).pendingCall).toMatchObject({ callId: 'toolu_1' });
    await recordCall(id, 'toolu_1');
    expect(sessions.get(id).pendingCall).toBeUndefined();
    expect(sessions.get(id).status).toBe('working');
  });

  it('ends with the turn, a disconnection or the session', async () => {
    const id = await openWithTurn();
    sessions.setPendingCall(id, asking);
    await sessions.endTurn(id);
    expect(sessions.get(id)).toMatchObject({ status: 'idle' });
    expect(sessions.get(id).pendingCall).toBeUndefined();

    await sessions.beginTurn(id);
    sessions.setPendingCall(id, asking);
    await sessions.disconnect(id, 'quiet');
    expect(sessions.get(id).pendingCall).toBeUndefined();

    await sessions.reconnect(id);
    sessions.setPendingCall(id, asking);
    await sessions.close(id);
    expect(sessions.get(id)).toMatchObject({ status: 'ended' });
    expect(sessions.get(id).pendingCall).toBeUndefined();
  });
});
