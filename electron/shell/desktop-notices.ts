import type { EventName, EventPayload } from '../../shared/contract';
import type { Disposer, EventHub } from '../lib';

/** A desktop notification: what the system shows outside the window. */
export interface DesktopNotice {
  readonly title: string;
  readonly body: string;
}

/** Turns one contract event into a notice (undefined: not worth interrupting the user for). */
export interface NoticeRuleFor<E extends EventName> {
  readonly event: E;
  readonly toNotice: (payload: EventPayload<E>) => DesktopNotice | undefined;
}

/** A notice rule for any contract event. */
export type NoticeRule = { [E in EventName]: NoticeRuleFor<E> }[EventName];

/**
 * The core events that raise a desktop notification. The hook for the UI's approvals: add
 * `{ event: 'approvals:requested', toNotice: ({ approval }) => … }` here once that event is in the
 * contract; the main process shows the notice when the window is not focused, and a click on it
 * brings the window forward.
 */
export const desktopNoticeRules: readonly NoticeRule[] = [
  {
    event: 'app:problem-reported',
    toNotice: (problem) => ({
      title: 'Vigil: a background task failed',
      body: `${problem.source}: ${problem.message}`,
    }),
  },
  {
    // A dangerous command waits for a person and is denied when nobody decides in time: say so outside the window.
    event: 'approvals:requested',
    toNotice: ({ approval }) => {
      const seconds = Math.max(
        0,
        Math.round((Date.parse(approval.expiresAt) - Date.parse(approval.requestedAt)) / 1000),
      );
      const within = seconds >= 120 ? `${Math.round(seconds / 60)} minutes` : `${seconds} seconds`;
      return {
        title: `${approval.agent} asks to run: ${approval.summary}`,
        body: `Approve or deny it in Vigil within ${within}; nobody deciding means it is denied.`,
      };
    },
  },
];

function subscribeRule<E extends EventName>(
  events: EventHub,
  rule: NoticeRuleFor<E>,
  show: (notice: DesktopNotice) => void,
): Disposer<void> {
  return events.on(rule.event, (payload) => {
    const notice = rule.toNotice(payload);
    if (notice !== undefined) show(notice);
  });
}

/** Shows a notice for every event a rule matches; the disposer unsubscribes them all. */
export function subscribeDesktopNotices(
  events: EventHub,
  rules: readonly NoticeRule[],
  show: (notice: DesktopNotice) => void,
): Disposer {
  const unsubscribers = rules.map((rule) => subscribeRule(events, rule as NoticeRuleFor<EventName>, show));
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
  };
}
