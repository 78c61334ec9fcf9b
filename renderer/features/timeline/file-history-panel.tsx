import type { FileVersionEntry } from '../../../shared/contract/checkpoints-history-contract';
import type { AppErrorData } from '../../../shared/errors';
import { escapeControls } from '../../../shared/text/control-characters';
import { checkpointActor, turnMessageLine } from '../../model/checkpoint-actor';
import { formatDate, shortId } from '../../model/format';
import { ErrorNotice } from '../../components/error-notice';

const statusWords: Readonly<Record<FileVersionEntry['status'], string>> = {
  added: 'created after it',
  modified: 'changed after it',
  deleted: 'deleted after it',
  'type-changed': 'became a link (or stopped being one) after it',
};

/** One version of the file: the checkpoint before the change, who made it and why, and what can be done with it. */
function FileVersion({
  entry,
  onCompare,
  onRestore,
}: {
  readonly entry: FileVersionEntry;
  readonly onCompare: (entry: FileVersionEntry) => void;
  readonly onRestore: (entry: FileVersionEntry) => void;
}) {
  const message = turnMessageLine(entry.turnMessage);
  return (
    <li
      className="history-item"
      data-testid="file-version"
      data-checkpoint-id={entry.checkpoint.id}
      data-status={entry.status}
    >
      <div className="history-line">
        <span className="mono" title={entry.checkpoint.id}>
          {shortId(entry.checkpoint.id)}
        </span>
        <span className="subtle">{formatDate(entry.checkpoint.time)}</span>
        <span className="history-actor" data-testid="file-version-actor">
          {checkpointActor(entry.checkpoint)}
        </span>
        <span className="subtle">{statusWords[entry.status]}</span>
      </div>
      <div className="history-line">
        <span
          className="history-message"
          data-testid="file-version-message"
          title={entry.turnMessage === undefined ? undefined : escapeControls(entry.turnMessage)}
        >
          {message ?? escapeControls(entry.checkpoint.name ?? entry.checkpoint.reason)}
        </span>
      </div>
      <div className="history-line history-actions">
        <button
          type="button"
          className="button button-small"
          data-testid="file-version-compare"
          onClick={() => onCompare(entry)}
          disabled={entry.version === undefined}
        >
          Compare with now
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid="file-version-restore"
          onClick={() => onRestore(entry)}
        >
          {entry.version === undefined ? 'Restore (delete it)…' : 'Restore this version…'}
        </button>
      </div>
    </li>
  );
}

/** The history a file-history panel shows and where its clicks go. */
export interface FileHistoryPanelProps {
  readonly path: string;
  readonly state: 'loading' | 'ready' | 'failed';
  readonly error: AppErrorData | undefined;
  readonly entries: readonly FileVersionEntry[];
  readonly checkpoints: number;
  readonly onCompare: (entry: FileVersionEntry) => void;
  readonly onRestore: (entry: FileVersionEntry) => void;
  readonly onClose: () => void;
}

/**
 * A file's history: every checkpoint, across sessions, after which the file changed, newest first,
 * with who changed it and the turn's message; each version can be compared with now or restored.
 */
export function FileHistoryPanel({
  path,
  state,
  error,
  entries,
  checkpoints,
  onCompare,
  onRestore,
  onClose,
}: FileHistoryPanelProps) {
  return (
    <section
      className="side-panel"
      role="dialog"
      aria-label={`History of ${escapeControls(path)}`}
      data-testid="file-history-panel"
      data-state={state}
      onKeyDown={(event) => event.key === 'Escape' && onClose()}
    >
      <header className="side-panel-header">
        <h3>
          History of <span className="mono">{escapeControls(path)}</span>
        </h3>
        <button
          type="button"
          className="button button-quiet button-small"
          onClick={onClose}
          aria-label="Close the history"
        >
          Close
        </button>
      </header>
      {state === 'loading' && <p className="muted">Looking through the timeline…</p>}
      {error !== undefined && <ErrorNotice error={error} />}
      {state === 'ready' && (
        <p className="subtle" data-testid="file-history-summary">
          {entries.length === 0
            ? `It did not change after any of the ${checkpoints} checkpoints.`
            : `${entries.length} of ${checkpoints} checkpoints were followed by a change to it.`}
        </p>
      )}
      <ol className="history-list">
        {entries.map((entry) => (
          <FileVersion key={entry.checkpoint.id} entry={entry} onCompare={onCompare} onRestore={onRestore} />
        ))}
      </ol>
    </section>
  );
}
