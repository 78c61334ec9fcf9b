import { describe, expect, it } from 'vitest';
import type { EventName } from '../../shared/contract';
import { silentLogger } from '../logging/logger';
import { ApprovalService, type ApprovalRequest } from './approval-service';

function recorder(): {
  events: { name: EventName; payload: unknown }[];
  emit: (name: EventName, payload: unknown) => void;
} {
  const events: { name: EventName; payload: unknown }[] = [];
  return { events, emit: (name, payload) => events.push({ name, payload }) };
}

const request = (overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  sessionId: 'ses_a',
  agent: 'tester',
  turn: 1,
  callId: 'c1',
  tool: 'terminal',
  summary: 'git push --force',
  reason: 'it matches the dangerous command "git push --force"',
  timeoutMs: 60_000,
  ...overrides,
});

describe('ApprovalService', () => {
  it('denies a call nobody decides on when the wait times out (fail closed)', async () => {
    const events = recorder();
    const approvals = new ApprovalService({ events, logger: silentLogger });
    const waiting = approvals.request(request({ timeoutMs: 50 }));
    expect(approvals.isWaiting('ses_a')).toBe(true);
    const result = await waiting;
    expect(result).toMatchObject({ decision: 'denied', decidedBy: 'timeout' });
    expect(approvals.list()).toEqual([]);
    expect(events.events.map((event) => event.name)).toEqual(['approvals:requested', 'approvals:decided']);
    expect(() => approvals.decide(result.approval.id, 'allow', 'window')).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
  });

  it('lets a human allow or deny, once', async () => {
    const approvals = new ApprovalService({ events: recorder(), logger: silentLogger });
    const first = approvals.request(request());
    const second = approvals.request(request({ callId: 'c2' }));
    const [a, b] = approvals.list();
    expect(a?.callId).toBe('c1');
    approvals.decide(a?.id ?? '', 'allow', 'window');
    approvals.decide(b?.id ?? '', 'deny', 'window');
    expect(await first).toMatchObject({ decision: 'allowed', decidedBy: 'human' });
    expect(await second).toMatchObject({ decision: 'denied', decidedBy: 'human' });
    expect(() => approvals.decide(a?.id ?? '', 'deny', 'window')).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
  });

  it('denies what a closing session or a shutdown leaves waiting', async () => {
    const approvals = new ApprovalService({ events: recorder(), logger: silentLogger });
    const closing = approvals.request(request({ sessionId: 'ses_a' }));
    const other = approvals.request(request({ sessionId: 'ses_b' }));
    approvals.denySession('ses_a');
    expect(await closing).toMatchObject({ decision: 'denied', decidedBy: 'session-closed' });
    expect(approvals.isWaiting('ses_b')).toBe(true);
    approvals.dispose();
    expect(await other).toMatchObject({ decision: 'denied', decidedBy: 'shutdown' });
  });

  it('denies at once where nobody can answer (a one-shot CLI)', async () => {
    const events = recorder();
    const approvals = new ApprovalService({ events, logger: silentLogger, canAsk: false });
    expect(await approvals.request(request())).toMatchObject({ decision: 'denied', decidedBy: 'unattended' });
    expect(events.events).toEqual([]);
  });

  it('tells listeners when a session starts and stops waiting', async () => {
    const approvals = new ApprovalService({ events: recorder(), logger: silentLogger });
    const seen: string[] = [];
    const stop = approvals.onWaitingChanged((sessionId) => seen.push(`${sessionId}:${approvals.isWaiting(sessionId)}`));
    const waiting = approvals.request(request());
    approvals.decide(approvals.list()[0]?.id ?? '', 'deny', 'window');
    await waiting;
    stop();
    expect(seen).toEqual(['ses_a:true', 'ses_a:false']);
  });
});
