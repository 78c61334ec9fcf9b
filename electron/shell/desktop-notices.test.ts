import { describe, expect, it } from 'vitest';
import { EventHub } from '../lib/event-hub';
import { desktopNoticeRules, subscribeDesktopNotices, type DesktopNotice, type NoticeRule } from './desktop-notices';

describe('subscribeDesktopNotices', () => {
  it('turns matching core events into notices until disposed', async () => {
    const events = new EventHub();
    const shown: DesktopNotice[] = [];
    const dispose = subscribeDesktopNotices(events, desktopNoticeRules, (notice) => shown.push(notice));
    events.emit('app:problem-reported', {
      source: 'checkpoints',
      message: 'store is read-only',
      at: '2026-01-01T00:00:00.000Z',
    });
    expect(shown).toEqual([{ title: 'Vigil: a background task failed', body: 'checkpoints: store is read-only' }]);
    await dispose();
    events.emit('app:problem-reported', { source: 'checkpoints', message: 'again', at: '2026-01-01T00:00:01.000Z' });
    expect(shown).toHaveLength(1);
  });

  it('skips events a rule declines', () => {
    const events = new EventHub();
    const shown: DesktopNotice[] = [];
    const quiet: NoticeRule = {
      event: 'app:problem-reported',
      toNotice: (problem) => (problem.source === 'noise' ? undefined : { title: 't', body: problem.message }),
    };
    subscribeDesktopNotices(events, [quiet], (notice) => shown.push(notice));
    events.emit('app:problem-reported', { source: 'noise', message: 'ignored', at: 'x' });
    events.emit('app:problem-reported', { source: 'memory', message: 'shown', at: 'x' });
    expect(shown).toEqual([{ title: 't', body: 'shown' }]);
  });

  it('tells the user, outside the window, that a dangerous command waits for a decision', () => {
    const events = new EventHub();
    const shown: DesktopNotice[] = [];
    subscribeDesktopNotices(events, desktopNoticeRules, (notice) => shown.push(notice));
    const approval = {
      id: 'a1',
      sessionId: 's1',
      agent: 'claude',
      turn: 2,
      callId: 'c1',
      tool: 'terminal',
      summary: 'git push --force',
      reason: 'dangerous',
      requestedAt: '2026-01-01T10:00:00.000Z',
      expiresAt: '2026-01-01T10:02:00.000Z',
    };
    events.emit('approvals:requested', { approval });
    expect(shown).toEqual([
      {
        title: 'claude asks to run: git push --force',
        body: 'Approve or deny it in Vigil within 2 minutes; nobody deciding means it is denied.',
      },
    ]);
  });
});
