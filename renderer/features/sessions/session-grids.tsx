import type { KeyboardEvent } from 'react';
import { SessionCard } from './session-card';
import type { Approval } from '../../../shared/contract/approvals-contract';
import type { SessionSummary } from '../../../shared/contract/sessions-contract';
import { pendingBySession } from '../../model/approval-list';
import { sessionLabel } from '../../../shared/sessions/session-identity';
import { sessionColourClass } from '../../model/session-lanes';
import { selectSessionIdentities } from '../../stores/select-session-identities';
import { useAppStore } from '../../stores/store-context';

const noApprovals: readonly Approval[] = [];

/** Arrow keys move the focus between the cards of the grid it is pressed in (Enter opens the focused one's transcript). */
function stepBetweenCards(event: KeyboardEvent<HTMLDivElement>): void {
  const steps: Readonly<Record<string, number>> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  const step = steps[event.key];
  if (step === undefined) return;
  const buttons = [...event.currentTarget.querySelectorAll<HTMLElement>('.session-card-open')];
  const index = buttons.findIndex((button) => button === document.activeElement);
  const next = buttons[Math.max(0, Math.min(buttons.length - 1, index + step))];
  if (next === undefined) return;
  event.preventDefault();
  next.focus();
}

/** Loads the sessions older than those shown, when there are any. */
function OlderSessionsButton() {
  const olderCount = useAppStore((state) => state.olderSessionCount);
  const loadOlderSessions = useAppStore((state) => state.loadOlderSessions);
  if (olderCount <= 0) return null;
  return (
    <button
      type="button"
      className="button button-quiet"
      data-testid="sessions-older"
      onClick={() => void loadOlderSessions()}
    >
      Show {olderCount} older session{olderCount === 1 ? '' : 's'}
    </button>
  );
}

/**
 * The session cards: the live ones in a grid, the ended ones folded below (with `endedCounts`
 * saying how many disconnected and ended), and a button to load older sessions.
 */
export function SessionGrids({
  live,
  ended,
  endedCounts,
  openId,
  now,
}: {
  readonly live: readonly SessionSummary[];
  readonly ended: readonly SessionSummary[];
  readonly endedCounts: readonly string[];
  readonly openId: string | undefined;
  readonly now: number;
}) {
  const approvals = useAppStore((state) => state.approvals);
  const navigate = useAppStore((state) => state.navigate);
  const identities = useAppStore(selectSessionIdentities);
  const pending = pendingBySession(approvals);
  const card = (session: SessionSummary) => (
    <SessionCard
      key={session.id}
      session={session}
      label={sessionLabel(session.agent, identities.get(session.id))}
      laneClass={sessionColourClass(session.id, identities)}
      pendingApprovals={pending.get(session.id) ?? noApprovals}
      isOpen={session.id === openId}
      isCompact={openId !== undefined}
      now={now}
      onOpen={() => navigate({ screen: 'sessions', sessionId: session.id === openId ? undefined : session.id })}
      onShowApprovals={() => navigate({ screen: 'approvals' })}
    />
  );

  return (
    <div className="screen-scroll sessions-grid-scroll">
      {live.length === 0 && (
        <p className="muted">
          No session is connected right now. Their transcripts stay: open one to read it or rewind a turn.
        </p>
      )}
      <div
        className="sessions-grid"
        data-testid="sessions-live"
        data-main-list=""
        tabIndex={-1}
        aria-label="Live sessions"
        onKeyDown={stepBetweenCards}
      >
        {live.map(card)}
      </div>
      {ended.length > 0 && (
        // Folded while sessions are live, so they keep the screen; open when nothing else is there.
        <details className="sessions-ended" data-testid="sessions-ended" open={live.length === 0 ? true : undefined}>
          <summary>
            Ended{' '}
            <span className="subtle">
              ({endedCounts.join(' · ')}: no agent connected; transcripts and turn undo stay)
            </span>
          </summary>
          <div className="sessions-grid">{ended.map(card)}</div>
        </details>
      )}
      <OlderSessionsButton />
    </div>
  );
}
