import { ErrorNotice } from '../../components/error-notice';
import { TranscriptView } from './transcript-view';
import type { SessionSummary } from '../../../shared/contract/sessions-contract';
import { sessionLabel } from '../../../shared/sessions/session-identity';
import { sessionColourClass } from '../../model/session-lanes';
import { selectSessionIdentities } from '../../stores/select-session-identities';
import { useAppStore } from '../../stores/store-context';
import { escapeControls } from '../../../shared/text/control-characters';

/** The open session's transcript beside the cards: each turn with its undo, and links to its checkpoints. */
export function TranscriptPanel({ session }: { readonly session: SessionSummary }) {
  const transcript = useAppStore((state) => state.transcript);
  const navigate = useAppStore((state) => state.navigate);
  const openTranscript = useAppStore((state) => state.openTranscript);
  const planRewind = useAppStore((state) => state.planRewind);
  const planRestoreOf = useAppStore((state) => state.planRestoreOf);
  const identities = useAppStore(selectSessionIdentities);
  const name = escapeControls(sessionLabel(session.agent, identities.get(session.id)));
  return (
    <aside
      className={`transcript-panel ${sessionColourClass(session.id, identities)}`}
      aria-label={`Transcript of ${name}`}
      data-testid="transcript-panel"
    >
      <header className="transcript-panel-head">
        <span className="lane-dot" aria-hidden="true" />
        <h3>{name}</h3>
        <span className="mono subtle">{session.id}</span>
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
          <ErrorNotice error={transcript.load.error} onRetry={() => void openTranscript(session.id)} />
        )}
        {transcript?.history === undefined ? (
          <p className="muted">Loading the transcript…</p>
        ) : (
          <TranscriptView
            history={transcript.history}
            onRewind={(turn) => void planRewind(session.id, turn)}
            onOpenCheckpoint={(dir, id) => navigate({ screen: 'timeline', dir, checkpointId: id })}
            onRestoreTheirs={(dir, id, file) => {
              // The restore plan (with its preview and undo) shows on the timeline of that checkpoint.
              navigate({ screen: 'timeline', dir, checkpointId: id });
              void planRestoreOf(dir, id, [file]);
            }}
          />
        )}
      </div>
    </aside>
  );
}
