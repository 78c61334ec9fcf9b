import { useEffect, useMemo, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { ErrorNotice } from '../../components/error-notice';
import { RewindDialog } from '../../components/rewind-dialog';
import { SessionCard } from '../../components/session-card';
import { TranscriptView } from '../../components/transcript-view';
import { useNow } from '../../components/use-now';
import type { Approval } from '../../../shared/contract/approvals-contract';
import { pendingBySession } from '../../model/approval-list';
import { isLive } from '../../model/session-list';
import { sessionColourClass } from '../../model/session-lanes';
import { useAppStore } from '../../stores/store-context';
import { SessionsEmpty } from './sessions-empty';
import { escapeControls } from '../../../shared/text/control-characters';
import { connectTargetOf } from '../../model/connect-target';

const noApprovals: readonly Approval[] = [];

/** Arrow keys move the focus between the cards of the grid it is pressed in (Enter opens the focused one's transcript). */
function stepBetweenCards(event: ReactKeyboardEvent<HTMLDivElement>): void {
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

/** Every agent session, live, side by side; a session's transcript with turn undo. */
export function SessionsScreen() {
  const sessions = useAppStore((state) => state.sessions);
  const olderCount = useAppStore((state) => state.olderSessionCount);
  const load = useAppStore((state) => state.sessionsLoad);
  const approvals = useAppStore((state) => state.approvals);
  const transcript = useAppStore((state) => state.transcript);
  const rewind = useAppStore((state) => state.rewind);
  const route = useAppStore((state) => state.route);
  const appInfo = useAppStore((state) => state.appInfo);
  const connectTarget = useMemo(() => connectTargetOf(appInfo), [appInfo]);
  const navigate = useAppStore((state) => state.navigate);
  const loadSessions = useAppStore((state) => state.loadSessions);
  const loadOlderSessions = useAppStore((state) => state.loadOlderSessions);
  const openTranscript = useAppStore((state) => state.openTranscript);
  const closeTranscript = useAppStore((state) => state.closeTranscript);
  const planRewind = useAppStore((state) => state.planRewind);
  const applyRewind = useAppStore((state) => state.applyRewind);
  const cancelRewind = useAppStore((state) => state.cancelRewind);
  const now = useNow(5000);
  const openId = route.screen === 'sessions' ? route.sessionId : undefined;

  useEffect(() => {
    if (openId === undefined) closeTranscript();
    else void openTranscript(openId);
  }, [openId, openTranscript, closeTranscript]);

  useEffect(() => {
    if (openId === undefined || rewind !== undefined) return undefined;
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key === 'Escape' && !event.defaultPrevented) navigate({ screen: 'sessions' });
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [openId, rewind, navigate]);

  if (load.kind === 'failed' && sessions.length === 0) {
    return (
      <div className="screen screen-scroll">
        <ErrorNotice error={load.error} onRetry={() => void loadSessions()} />
      </div>
    );
  }
  if (sessions.length === 0)
    return load.kind === 'ready' ? (
      <SessionsEmpty target={connectTarget} />
    ) : (
      <div className="screen" data-testid="sessions-loading" />
    );

  const pending = pendingBySession(approvals);
  const live = sessions.filter(isLive);
  const ended = sessions.filter((session) => !isLive(session));
  const disconnectedCount = ended.filter((session) => session.status === 'disconnected').length;
  const endedCount = ended.length - disconnectedCount;
  const counts = [
    `${live.length} live`,
    ...(disconnectedCount > 0 ? [`${disconnectedCount} disconnected`] : []),
    ...(endedCount > 0 ? [`${endedCount} ended`] : []),
  ];
  const open = sessions.find((session) => session.id === openId);
  const card = (session: (typeof sessions)[number]) => (
    <SessionCard
      key={session.id}
      session={session}
      laneClass={sessionColourClass(session.id)}
      pendingApprovals={pending.get(session.id) ?? noApprovals}
      isOpen={session.id === openId}
      isCompact={openId !== undefined}
      now={now}
      onOpen={() => navigate({ screen: 'sessions', sessionId: session.id === openId ? undefined : session.id })}
      onShowApprovals={() => navigate({ screen: 'approvals' })}
    />
  );

  return (
    <div className="screen" data-testid="sessions-screen">
      <div className="screen-header">
        <h2>Sessions</h2>
        <span className="muted" data-testid="sessions-count">
          {counts.join(' · ')}
        </span>
      </div>
      <div className={`sessions-body ${open === undefined ? '' : 'has-transcript'}`}>
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
            <details
              className="sessions-ended"
              data-testid="sessions-ended"
              open={live.length === 0 ? true : undefined}
            >
              <summary>
                Ended{' '}
                <span className="subtle">
                  ({counts.slice(1).join(' · ')}: no agent connected; transcripts and turn undo stay)
                </span>
              </summary>
              <div className="sessions-grid">{ended.map(card)}</div>
            </details>
          )}
          {olderCount > 0 && (
            <button
              type="button"
              className="button button-quiet"
              data-testid="sessions-older"
              onClick={() => void loadOlderSessions()}
            >
              Show {olderCount} older session{olderCount === 1 ? '' : 's'}
            </button>
          )}
        </div>
        {open !== undefined && (
          <aside
            className={`transcript-panel ${sessionColourClass(open.id)}`}
            aria-label={`Transcript of ${escapeControls(open.agent)}`}
            data-testid="transcript-panel"
          >
            <header className="transcript-panel-head">
              <span className="lane-dot" aria-hidden="true" />
              <h3>{escapeControls(open.agent)}</h3>
              <span className="mono subtle">{open.id}</span>
              <span className="spacer" />
              <button
                type="button"
                className="button button-quiet button-small"
                onClick={() => navigate({ screen: 'sessions' })}
                aria-label="Close the transcript (Esc)"
              >
                Close
              </button>
            </header>
            <div className="transcript-scroll">
              {transcript?.load.kind === 'failed' && (
                <ErrorNotice error={transcript.load.error} onRetry={() => void openTranscript(open.id)} />
              )}
              {transcript?.history === undefined ? (
                <p className="muted">Loading the transcript…</p>
              ) : (
                <TranscriptView
                  history={transcript.history}
                  onRewind={(turn) => void planRewind(open.id, turn, 'both')}
                  onOpenCheckpoint={(dir, id) => navigate({ screen: 'timeline', dir, checkpointId: id })}
                />
              )}
            </div>
          </aside>
        )}
      </div>
      {rewind !== undefined && (
        <RewindDialog
          toTurn={rewind.toTurn}
          mode={rewind.mode}
          phase={rewind.phase}
          plan={rewind.plan}
          error={rewind.error}
          history={transcript?.history}
          onChooseMode={(mode) => void planRewind(rewind.sessionId, rewind.toTurn, mode)}
          onConfirm={() => void applyRewind()}
          onCancel={cancelRewind}
        />
      )}
    </div>
  );
}
