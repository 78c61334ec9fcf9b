import { useEffect, useMemo } from 'react';
import { ErrorNotice } from '../../components/error-notice';
import { RewindDialog } from '../../components/rewind-dialog';
import { useNow } from '../../components/use-now';
import type { SessionSummary } from '../../../shared/contract/sessions-contract';
import { isLive } from '../../model/session-list';
import { useAppStore } from '../../stores/store-context';
import { useRewindDialog } from '../../stores/use-rewind-dialog';
import { SessionGrids } from './session-grids';
import { SessionsEmpty } from './sessions-empty';
import { TranscriptPanel } from './transcript-panel';
import { connectTargetOf } from '../../model/connect-target';

/** The sessions split into live and ended, and the counts the header shows ("2 live · 1 disconnected · 3 ended"). */
function sessionGroups(sessions: readonly SessionSummary[]) {
  const live = sessions.filter(isLive);
  const ended = sessions.filter((session) => !isLive(session));
  const disconnectedCount = ended.filter((session) => session.status === 'disconnected').length;
  const endedCount = ended.length - disconnectedCount;
  const counts = [
    `${live.length} live`,
    ...(disconnectedCount > 0 ? [`${disconnectedCount} disconnected`] : []),
    ...(endedCount > 0 ? [`${endedCount} ended`] : []),
  ];
  return { live, ended, counts };
}

/** The routed session's transcript opens and closes with the route; Escape closes it (unless a rewind is open). */
function useTranscriptRoute(openId: string | undefined, isRewinding: boolean): void {
  const navigate = useAppStore((state) => state.navigate);
  const openTranscript = useAppStore((state) => state.openTranscript);
  const closeTranscript = useAppStore((state) => state.closeTranscript);

  useEffect(() => {
    if (openId === undefined) closeTranscript();
    else void openTranscript(openId);
  }, [openId, openTranscript, closeTranscript]);

  useEffect(() => {
    if (openId === undefined || isRewinding) return undefined;
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key === 'Escape' && !event.defaultPrevented) navigate({ screen: 'sessions' });
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [openId, isRewinding, navigate]);
}

/** A turn's rewind, started from the transcript: its plan, its mode, and one click to apply. */
function SessionsRewind() {
  const dialog = useRewindDialog();
  return dialog === undefined ? null : <RewindDialog {...dialog} />;
}

/** Every agent session, live, side by side; a session's transcript with turn undo. */
export function SessionsScreen() {
  const sessions = useAppStore((state) => state.sessions);
  const load = useAppStore((state) => state.sessionsLoad);
  const isRewinding = useAppStore((state) => state.rewind !== undefined);
  const route = useAppStore((state) => state.route);
  const appInfo = useAppStore((state) => state.appInfo);
  const connectTarget = useMemo(() => connectTargetOf(appInfo), [appInfo]);
  const loadSessions = useAppStore((state) => state.loadSessions);
  const now = useNow(5000);
  const openId = route.screen === 'sessions' ? route.sessionId : undefined;
  useTranscriptRoute(openId, isRewinding);

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

  const { live, ended, counts } = sessionGroups(sessions);
  const open = sessions.find((session) => session.id === openId);
  return (
    <div className="screen" data-testid="sessions-screen">
      <div className="screen-header">
        <h2>Sessions</h2>
        <span className="muted" data-testid="sessions-count">
          {counts.join(' · ')}
        </span>
      </div>
      <div className={`sessions-body ${open === undefined ? '' : 'has-transcript'}`}>
        <SessionGrids live={live} ended={ended} endedCounts={counts.slice(1)} openId={openId} now={now} />
        {open !== undefined && <TranscriptPanel session={open} />}
      </div>
      <SessionsRewind />
    </div>
  );
}
