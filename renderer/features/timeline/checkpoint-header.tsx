import { useState, type KeyboardEvent } from 'react';
import type { TimelineEntry } from '../../model/timeline-filter';
import { actorOfCheckpoint } from '../../../shared/contract/actor-model';
import { actorWords } from '../../model/actor-view';
import { heldState } from '../../model/held-state';
import { formatDate, shortId } from '../../model/format';
import { escapeControls } from '../../../shared/text/control-characters';

/** The checkpoint's name, and an editor for it (Enter keeps, Escape cancels); names are kept beside the checkpoint. */
function CheckpointTitle({
  entry,
  shownTitle,
  onRename,
}: {
  readonly entry: TimelineEntry;
  readonly shownTitle: string | undefined;
  readonly onRename: ((name: string) => Promise<boolean>) | undefined;
}) {
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const title = shownTitle ?? escapeControls(entry.name ?? entry.reason);
  async function save(): Promise<void> {
    if (draft === undefined || onRename === undefined) return;
    if (await onRename(draft)) setDraft(undefined);
  }
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>): void {
    event.stopPropagation();
    if (event.key === 'Enter') void save();
    else if (event.key === 'Escape') setDraft(undefined);
  }
  if (draft !== undefined) {
    return (
      <div className="checkpoint-title">
        <input
          className="input input-small checkpoint-name-input"
          data-testid="checkpoint-name-input"
          aria-label="Name of this checkpoint (empty: no name)"
          autoFocus
          maxLength={200}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button
          type="button"
          className="button button-small button-primary"
          data-testid="checkpoint-name-save"
          onClick={() => void save()}
        >
          Save name
        </button>
        <button type="button" className="button button-small button-quiet" onClick={() => setDraft(undefined)}>
          Cancel
        </button>
      </div>
    );
  }
  return (
    <div className="checkpoint-title">
      <span className="lane-dot" aria-hidden="true" />
      <h3 title={title} data-testid="checkpoint-title">
        {title}
      </h3>
      {title !== escapeControls(entry.reason) && (
        <span className="subtle checkpoint-reason" data-testid="checkpoint-reason">
          {escapeControls(entry.reason)}
        </span>
      )}
      {onRename !== undefined && (
        <button
          type="button"
          className="button button-quiet button-small"
          data-testid="checkpoint-rename"
          onClick={() => setDraft(entry.name ?? '')}
          title="Give this checkpoint a name (kept beside it; the checkpoint itself never changes)"
        >
          {entry.name === undefined ? 'Name…' : 'Rename…'}
        </button>
      )}
    </div>
  );
}

/** The head of a checkpoint's detail: its name or why it was taken, who, when, what changed; a restore point says what it undoes. */
export function CheckpointHeader({
  entry,
  title,
  laneClass,
  onUndoRestore,
  onShowRestored,
  onRename,
}: {
  readonly entry: TimelineEntry;
  /** The title its timeline row shows (its name, its turn's message or calls, else its reason). */
  readonly title?: string;
  readonly laneClass: string;
  readonly onUndoRestore: () => void;
  readonly onShowRestored: (id: string) => void;
  /** Names the checkpoint; absent where it cannot be (Hermes's checkpoints). */
  readonly onRename?: ((name: string) => Promise<boolean>) | undefined;
}) {
  const { attribution } = entry;
  const held = heldState(entry);
  return (
    <header className={`checkpoint-header ${laneClass}`} data-testid="checkpoint-header" data-checkpoint-id={entry.id}>
      <CheckpointTitle key={entry.id} entry={entry} shownTitle={title} onRename={onRename} />
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
        {held !== undefined && (
          <span data-testid="checkpoint-held" data-when={held.when}>
            holds the {held.text}
          </span>
        )}
        {entry.source === 'hermes' && <span className="badge">Hermes store (read only)</span>}
        {entry.skipped.length > 0 && (
          <span
            className="subtle"
            title={entry.skipped.map((skip) => `${escapeControls(skip.path)}: ${skip.reason}`).join('\n')}
          >
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
