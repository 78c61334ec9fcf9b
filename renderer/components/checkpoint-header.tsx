import type { TimelineEntry } from '../model/timeline-filter';
import { actorOfCheckpoint } from '../../shared/contract/actor-model';
import { actorWords } from '../model/actor-view';
import { formatDate, shortId } from '../model/format';
import { escapeControls } from '../../shared/text/control-characters';

/** The head of a checkpoint's detail: why, who, when, what changed; a restore point says what it undoes. */
export function CheckpointHeader({
  entry,
  laneClass,
  onUndoRestore,
  onShowRestored,
}: {
  readonly entry: TimelineEntry;
  readonly laneClass: string;
  readonly onUndoRestore: () => void;
  readonly onShowRestored: (id: string) => void;
}) {
  const { attribution } = entry;
  return (
    <header className={`checkpoint-header ${laneClass}`} data-testid="checkpoint-header" data-checkpoint-id={entry.id}>
      <div className="checkpoint-title">
        <span className="lane-dot" aria-hidden="true" />
        <h3 title={escapeControls(entry.reason)}>{escapeControls(entry.reason)}</h3>
      </div>
      <div className="checkpoint-facts">
        <span className="mono" title={entry.id}>
          {shortId(entry.id)}
        </span>
        <span>{formatDate(entry.time)}</span>
        <span data-testid="checkpoint-actor" data-actor={actorOfCheckpoint(entry).kind}>
          by {actorWords(actorOfCheckpoint(entry))}
        </span>
        {attribution.sessionId !== undefined && <span className="mono subtle">{attribution.sessionId}</span>}
        {attribution.tool !== undefined && <span>{attribution.tool}</span>}
        {entry.source === 'hermes' && <span className="badge">Hermes store (read only)</span>}
        {entry.skipped.length > 0 && (
          <span className="subtle" title={entry.skipped.map((skip) => `${escapeControls(skip.path)}: ${skip.reason}`).join('\n')}>
            {entry.skipped.length} path{entry.skipped.length === 1 ? '' : 's'} not stored
          </span>
        )}
      </div>
      {entry.kind === 'pre-rollback' && (
        <div className="restore-point-callout" data-testid="restore-point">
          <span>
            Restore point saved just before a restore
            {entry.restores !== undefined && (
              <>
                {' '}
                to{' '}
                <button type="button" className="link-button mono" onClick={() => onShowRestored(entry.restores ?? '')}>
                  {shortId(entry.restores)}
                </button>
              </>
            )}
            . Restoring it undoes that restore.
          </span>
          <button type="button" className="button button-small" data-testid="undo-this-restore" onClick={onUndoRestore}>
            Undo this restore…
          </button>
        </div>
      )}
    </header>
  );
}
