import type { SessionStatus, SessionSummary } from '../../shared/contract/sessions-contract';
import { maskSecretValues } from '../../shared/secrets/mask-secret-values';
import { formatRelativeTime, plural } from '../model/format';
import { escapeControls } from '../../shared/text/control-characters';

/** The badge of each state: exactly one of these, always. */
export const sessionStatusLabels: Readonly<Record<SessionStatus, string>> = {
  working: 'working',
  'waiting-approval': 'waiting for approval',
  idle: 'idle',
  disconnected: 'disconnected',
  ended: 'ended',
};

/** What each state means, for the badge's tooltip. */
const statusHints: Readonly<Record<SessionStatus, string>> = {
  working: 'A turn is open or a tool call is running.',
  'waiting-approval': 'A tool call waits for your decision.',
  idle: 'Connected, between turns.',
  disconnected: 'The agent went away without closing the session (no request for a while, its process ended, or Vigil restarted). A new request from it revives the session.',
  ended: 'The session was closed.',
};

/**
 * One session at a glance: agent, state, where it works, its turn, its last tool call and what
 * waits for approval. Its colour comes from its id, the same on every screen and after a restart.
 */
export function SessionCard({
  session,
  laneClass,
  pendingApprovals,
  isOpen,
  now,
  onOpen,
  onShowApprovals,
}: {
  readonly session: SessionSummary;
  readonly laneClass: string;
  readonly pendingApprovals: number;
  readonly isOpen: boolean;
  readonly now: number;
  readonly onOpen: () => void;
  readonly onShowApprovals: () => void;
}) {
  const last = session.lastToolCall;
  return (
    <article
      className={`session-card ${laneClass}`}
      data-testid="session-card"
      data-session-id={session.id}
      data-status={session.status}
      data-turn={session.currentTurn}
      data-calls={session.toolCallCount}
      data-updated-at={session.updatedAt}
      data-last-active-at={session.lastActiveAt}
      aria-current={isOpen ? 'true' : undefined}
    >
      <button type="button" className="session-card-open" onClick={onOpen} aria-label={`Open the transcript of ${escapeControls(session.agent)} (${session.id})`} />
      <header className="session-card-head">
        <span className="lane-dot" aria-hidden="true" />
        <span className="session-agent">{escapeControls(session.agent)}</span>
        <span className="badge" data-kind={session.status} data-testid="session-status" title={statusHints[session.status]}>
          {sessionStatusLabels[session.status]}
        </span>
        {pendingApprovals > 0 && (
          <button type="button" className="badge badge-button" data-kind="waiting-approval" onClick={onShowApprovals} data-testid="session-pending">
            {plural(pendingApprovals, 'approval')} pending
          </button>
        )}
        <span className="session-id mono subtle" title={session.id}>
          {session.id}
        </span>
      </header>
      <div className="session-cwd mono" title={escapeControls(session.cwd ?? session.roots.join('\n'), { keepLineBreaks: true })}>
        {escapeControls(session.cwd ?? session.roots[0] ?? 'no workspace yet (the client has not reported its roots)')}
      </div>
      <div className="session-meta">
        <span data-testid="session-turn">
          Turn {session.currentTurn}
          {session.isTurnOpen ? ' · in progress' : ''}
        </span>
        <span>{plural(session.toolCallCount, 'tool call')}</span>
        <span className="subtle" data-testid="session-last-active">
          active {formatRelativeTime(session.lastActiveAt, now)}
        </span>
      </div>
      <div className="session-last" data-testid="session-last-call">
        {last === undefined ? (
          <span className="subtle">No tool call yet</span>
        ) : (
          <>
            <span className="session-tool">{last.name}</span>
            <span className="session-summary mono" title={escapeControls(maskSecretValues(last.summary))}>
              {escapeControls(maskSecretValues(last.summary))}
            </span>
            <span className="badge" data-kind={last.isOk ? last.decision : 'failed'}>
              {last.isOk ? last.decision : last.decision === 'allowed' || last.decision === 'asked-allowed' ? 'failed' : last.decision}
            </span>
          </>
        )}
      </div>
      {session.warnings.length > 0 && (
        <ul className="session-warnings">
          {session.warnings.map((warning) => (
            <li key={warning}>{escapeControls(warning, { keepLineBreaks: true })}</li>
          ))}
        </ul>
      )}
    </article>
  );
}
