import type { SearchHit } from '../../../shared/contract/checkpoints-history-contract';
import type { AppErrorData } from '../../../shared/errors';
import { escapeControls } from '../../../shared/text/control-characters';
import { checkpointActor, turnMessageLine } from '../../model/checkpoint-actor';
import { formatDate, shortId } from '../../model/format';
import { ErrorNotice } from '../../components/error-notice';

function change(hit: SearchHit): string {
  if (hit.before === 0) return 'appeared';
  if (hit.after === 0) return 'went away';
  return hit.after > hit.before ? 'occurs more often' : 'occurs less often';
}

/** One place where the count changed: the file, the change, who made it, and between which checkpoints. */
function PastSearchHit({ hit, onOpen }: { readonly hit: SearchHit; readonly onOpen: (hit: SearchHit) => void }) {
  return (
    <li className="history-item">
      <button
        type="button"
        className="history-open"
        data-testid="past-search-hit"
        data-checkpoint-id={hit.checkpoint.id}
        data-path={hit.path}
        onClick={() => onOpen(hit)}
      >
        <span className="history-line">
          <span className="mono">{escapeControls(hit.path)}</span>
          <span className="badge" data-kind={hit.after === 0 ? 'deleted' : hit.before === 0 ? 'added' : 'modified'}>
            {hit.before} → {hit.after}: {change(hit)}
          </span>
        </span>
        <span className="history-line">
          <span className="history-actor">{checkpointActor(hit.checkpoint)}</span>
          <span className="history-message">
            {turnMessageLine(hit.turnMessage) ?? escapeControls(hit.checkpoint.name ?? hit.checkpoint.reason)}
          </span>
        </span>
        <span className="history-line subtle">
          after {shortId(hit.checkpoint.id)} · {formatDate(hit.checkpoint.time)} ·{' '}
          {hit.nextCheckpoint === 'live' ? 'by now' : `by ${shortId(hit.nextCheckpoint)}`}
        </span>
      </button>
    </li>
  );
}

/** The answer a past-search panel shows and where its clicks go. */
export interface PastSearchPanelProps {
  readonly text: string;
  readonly state: 'loading' | 'ready' | 'failed';
  readonly error: AppErrorData | undefined;
  readonly hits: readonly SearchHit[];
  readonly checkpoints: number;
  readonly isTruncated: boolean;
  readonly onOpen: (hit: SearchHit) => void;
  readonly onClose: () => void;
}

/** Where the count of a text in a file changed, newest first, with the file and who; a click opens that change. */
export function PastSearchPanel({
  text,
  state,
  error,
  hits,
  checkpoints,
  isTruncated,
  onOpen,
  onClose,
}: PastSearchPanelProps) {
  return (
    <section
      className="side-panel"
      role="dialog"
      aria-label={`When "${escapeControls(text)}" appeared or went away`}
      data-testid="past-search-panel"
      data-state={state}
      onKeyDown={(event) => event.key === 'Escape' && onClose()}
    >
      <header className="side-panel-header">
        <h3>
          When did “<span className="mono">{escapeControls(text)}</span>” appear or go away?
        </h3>
        <button type="button" className="button button-quiet button-small" onClick={onClose}>
          Close
        </button>
      </header>
      {state === 'loading' && <p className="muted">Comparing every checkpoint with the next…</p>}
      {error !== undefined && <ErrorNotice error={error} />}
      {state === 'ready' && (
        <p className="subtle" data-testid="past-search-summary">
          {hits.length === 0
            ? `Its count changed in no file across the ${checkpoints} checkpoints.`
            : `${hits.length}${isTruncated ? '+' : ''} change${hits.length === 1 ? '' : 's'} across ${checkpoints} checkpoints, newest first.`}
        </p>
      )}
      <ol className="history-list">
        {hits.map((hit) => (
          <PastSearchHit key={`${hit.checkpoint.id}\0${hit.path}`} hit={hit} onOpen={onOpen} />
        ))}
      </ol>
    </section>
  );
}
