import type { SessionSummary } from '../../shared/contract/sessions-contract';

/** Whether an agent is connected to a session (working, waiting for approval or idle; not disconnected or ended). */
export function isLive(session: SessionSummary): boolean {
  return session.status === 'working' || session.status === 'waiting-approval' || session.status === 'idle';
}

/**
 * The order of the sessions screen: live sessions oldest first (a card never jumps when another
 * session changes, and a new one appears at the end), then disconnected and ended ones, most
 * recently active first.
 */
export function compareSessions(a: SessionSummary, b: SessionSummary): number {
  const liveA = isLive(a);
  const liveB = isLive(b);
  if (liveA !== liveB) return liveA ? -1 : 1;
  if (liveA) return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1;
  return a.lastActiveAt > b.lastActiveAt ? -1 : a.lastActiveAt < b.lastActiveAt ? 1 : a.id < b.id ? -1 : 1;
}

/** The list with one session added or replaced, in screen order; an older update than the one held is ignored. */
export function upsertSession(sessions: readonly SessionSummary[], session: SessionSummary): readonly SessionSummary[] {
  const index = sessions.findIndex((existing) => existing.id === session.id);
  const current = index === -1 ? undefined : sessions[index];
  if (current !== undefined && current.updatedAt > session.updatedAt) return sessions;
  const next =
    index === -1 ? [...sessions, session] : sessions.map((existing, at) => (at === index ? session : existing));
  return next.sort(compareSessions);
}
