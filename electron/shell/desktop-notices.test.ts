import { describe, expect, it } from 'vitest';
import { EventHub } from '../core/event-hub';
import { desktopNoticeRules, subscribeDesktopNotices, type DesktopNotice, type NoticeRule } from './desktop-notices';

describe('subscribeDesktopNotices', () => {
  it('turns matching core events into notices until disposed', async () => {
    const events = new EventHub();
    const shown: DesktopNotice[] = [];
    const dispose = subscribeDesktopNotices(events, desktopNoticeRules, (notice) => shown.push(notice));
    events.emit('app:problem-reported', { source: 'checkpoints', message: 'store is read-only', at: '2026-01-01T00:00:00.000Z' });
    expect(shown).toEqual([{ title: 'Vigil: a background task failed', body: 'checkpoints: store is read-only' }]);
    await dispose();
    events.emit('app:problem-reported', { source: 'checkpoints', message: 'again', at: '2026-01-01T00:00:01.000Z' });
    expect(shown).toHaveLength(1);
  });

  it('skips events a rule declines', () => {
    const events = new EventHub();
    const shown: DesktopNotice[] = [];
    const quiet: NoticeRule = { event: 'app:problem-reported', toNotice: (problem) => (problem.source === 'noise' ? undefined : { title: 't', body: problem.message }) };
    subscribeDesktopNotices(events, [quiet], (notice) => shown.push(notice));
    events.emit('app:problem-reported', { source: 'noise', message: 'ignored', at: 'x' });
    events.emit('app:problem-reported', { source: 'memory', message: 'shown', at: 'x' });
    expect(shown).toEqual([{ title: 't', body: 'shown' }]);
  });
});
