import type { Approval } from '../../../shared/contract/approvals-contract';
import type { SessionStatus, SessionSummary } from '../../../shared/contract/sessions-contract';
import { maskSecretValues } from '../../../shared/secrets/mask-secret-values';
import { escapeControls } from '../../../shared/text/control-characters';
import { shortSessionId } from '../../model/actor-view';
import { formatRelativeTime, plural } from '../../model/format';
import { oneLine } from '../../model/row-words';
import { SessionOverwrites } from './overwrite-notes';
import { SessionCalls, SessionFiles, SessionPending, SessionPendingCall } from './session-card-parts';

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
  disconnected:
    'The agent went away without closing the session (no request for a while, its process ended, or Vigil restarted). A new request from it revives the session.',
  ended: 'The session was closed.',
};

/** How long a working session may go without a call or a message before its badge says so. */
export const quietAfterMs = 60_000;

/** "no activity for 75 s" (or "for 3 min") when a working session has been silent past `quietAfterMs`, else undefined. */
export function quietLabel(session: SessionSummary, now: number): string | undefined {
  if (session.status !== 'working') return undefined;
  const silentMs = now - Date.parse(session.lastActiveAt);
  if (!(silentMs >= quietAfterMs)) return undefined;
  const seconds = Math.floor(silentMs / 1000);
  return `no activity for ${seconds < 120 ? `${seconds} s` : `${Math.floor(seconds / 60)} min`}`;
}

/** The agent's name (numbered when another session shares it) and the state badge. */
function SessionCardHead({
  session,
  agent,
  now,
}: {
  readonly session: SessionSummary;
  readonly agent: string;
  readonly now: number;
}) {
  const quiet = quietLabel(session, now);
  return (
    <header className="session-card-head">
      <span className="lane-dot" aria-hidden="true" />
      <h3 className="session-agent" data-testid="session-agent" title={agent}>
        {agent}
      </h3>
      <span
        className="badge"
        data-kind={session.status}
        data-quiet={quiet === undefined ? undefined : 'true'}
        data-testid="session-status"
        title={
          quiet !== undefined
            ? 'A turn is open, but the agent has made no call and sent no message for a while: it may be thinking, running a long command, or stuck.'
            : session.status === 'waiting-approval' && session.pendingCall?.isAsking === true
              ? `A tool call waits for your decision in ${session.pendingCall.agentName}'s own permission prompt.`
              : statusHints[session.status]
        }
      >
        {quiet ?? sessionStatusLabels[session.status]}
      </span>
    </header>
  );
}

/** The short session id, and where the agent works. */
function SessionWhere({ session, root }: { readonly session: SessionSummary; readonly root: string | undefined }) {
  return (
    <div className="session-card-sub">
      <span className="session-id mono subtle" title={session.id} data-testid="session-id">
        {shortSessionId(session.id)}
      </span>
      <span
        className="session-cwd mono"
        title={escapeControls(session.cwd ?? session.roots.join('\n'), { keepLineBreaks: true })}
      >
        {escapeControls(root ?? 'no workspace yet (the client has not reported its roots)')}
      </span>
    </div>
  );
}

/** The current turn and its prompt (secrets masked, on one line). */
function SessionPrompt({ session }: { readonly session: SessionSummary }) {
  const prompt = session.prompt === undefined ? '' : oneLine(maskSecretValues(session.prompt));
  return (
    <div className="session-prompt" data-testid="session-turn">
      <span className="session-turn-label">
        Turn {session.currentTurn}
        {session.isTurnOpen ? ' · in progress' : ''}
      </span>
      <span className="session-prompt-text" data-testid="session-prompt" title={prompt}>
        {prompt === '' ? (
          <span className="subtle">{session.currentTurn === 0 ? 'no turn yet' : 'no user message for this turn'}</span>
        ) : (
          prompt
        )}
      </span>
    </div>
  );
}

/** The counts of calls and files, and when the session was last active. */
function SessionMeta({ session, now }: { readonly session: SessionSummary; readonly now: number }) {
  return (
    <div className="session-meta">
      <span>{plural(session.toolCallCount, 'tool call')}</span>
      {session.fileCount > 0 && <span>{plural(session.fileCount, 'file')} touched</span>}
      <span className="subtle" data-testid="session-last-active">
        active {formatRelativeTime(session.lastActiveAt, now)}
      </span>
    </div>
  );
}

/** The session a card shows and where its clicks go. */
export interface SessionCardProps {
  readonly session: SessionSummary;
  /** The agent's name as people see it: numbered (`claude-code #2`) when another session shares it. */
  readonly label?: string;
  readonly laneClass: string;
  readonly pendingApprovals: readonly Approval[];
  readonly isOpen: boolean;
  readonly isCompact?: boolean;
  readonly now: number;
  readonly onOpen: () => void;
  readonly onShowApprovals: () => void;
}

/**
 * One session at a glance: the agent's full name, its state, the current turn's prompt, its
 * latest five calls with their decisions, the files its calls touched with +/−, and what waits
 * for approval. The session id is what gets shortened. Its colour is assigned from the session list, the same on
 * every screen and after a restart. `isCompact` (beside an open transcript) lists fewer files.
 */
export function SessionCard({
  session,
  label,
  laneClass,
  pendingApprovals,
  isOpen,
  isCompact = false,
  now,
  onOpen,
  onShowApprovals,
}: SessionCardProps) {
  const agent = escapeControls(label ?? session.agent);
  const root = session.cwd ?? session.roots[0];
  const calls =
    session.recentCalls.length > 0
      ? session.recentCalls
      : session.lastToolCall === undefined
        ? []
        : [session.lastToolCall];
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
      <button
        type="button"
        className="session-card-open"
        onClick={onOpen}
        aria-label={`Open the transcript of ${agent} (${session.id})`}
      />
      <SessionCardHead session={session} agent={agent} now={now} />
      <SessionWhere session={session} root={root} />
      <SessionPrompt session={session} />
      <SessionPending approvals={pendingApprovals} onShow={onShowApprovals} />
      {session.pendingCall !== undefined && <SessionPendingCall call={session.pendingCall} />}
      <SessionCalls calls={calls} isCallPending={session.pendingCall !== undefined} />
      <SessionOverwrites notices={session.overwrites?.slice(0, isCompact ? 1 : 3)} />
      <SessionFiles files={session.files} total={session.fileCount} root={root} limit={isCompact ? 3 : 6} />
      <SessionMeta session={session} now={now} />
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
