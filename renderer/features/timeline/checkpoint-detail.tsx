import type { KeyboardEvent } from 'react';
import { ChangedFileRow } from '../../components/changed-file-row';
import { CheckpointHeader } from '../../components/checkpoint-header';
import { DiffView } from '../../components/diff-view';
import { ErrorNotice } from '../../components/error-notice';
import { RestoreOutcome } from '../../components/restore-outcome';
import { SelectableList } from '../../components/selectable-list';
import { shortId } from '../../model/format';
import { changedPaths } from '../../model/restore-plan';
import { sessionColourClass } from '../../model/session-lanes';
import type { TimelineEntry } from '../../model/timeline-filter';
import type { CompareTarget } from '../../stores/checkpoint-slice';
import { useAppStore } from '../../stores/store-context';

const kindNotes: Readonly<Record<string, string>> = { symlink: 'A symbolic link: its target changed.', 'too-large': 'Too large to diff line by line.' };

function sideLabels(entry: TimelineEntry, compare: CompareTarget): { from: string; to: string } {
  if (compare.kind === 'live') return { from: shortId(entry.id), to: 'live' };
  return compare.isOlder ? { from: shortId(compare.id), to: shortId(entry.id) } : { from: shortId(entry.id), to: shortId(compare.id) };
}

/** A checkpoint: what differs, each file's diff, the selection, and restore (all or selected) with its plan and undo. */
export function CheckpointDetail({ entry, newer, older }: { readonly entry: TimelineEntry; readonly newer: string | undefined; readonly older: string | undefined }) {
  const detail = useAppStore((state) => state.detail);
  const selection = useAppStore((state) => state.fileSelection);
  const fileDiff = useAppStore((state) => state.fileDiff);
  const lastRestore = useAppStore((state) => state.lastRestore);
  const navigate = useAppStore((state) => state.navigate);
  const compareWith = useAppStore((state) => state.compareWith);
  const refreshDetail = useAppStore((state) => state.refreshDetail);
  const changeFileSelection = useAppStore((state) => state.changeFileSelection);
  const showFileDiff = useAppStore((state) => state.showFileDiff);
  const planRestore = useAppStore((state) => state.planRestore);
  const planUndoRestore = useAppStore((state) => state.planUndoRestore);
  const planUndoOfRestorePoint = useAppStore((state) => state.planUndoOfRestorePoint);
  const dismissLastRestore = useAppStore((state) => state.dismissLastRestore);
  const pinCheckpoint = useAppStore((state) => state.pinCheckpoint);
  const stale = useAppStore((state) => state.staleComparison);
  if (detail?.checkpointId !== entry.id) return <div className="checkpoint-detail" data-testid="checkpoint-detail" data-state="loading" />;

  const files = detail.files;
  const keys = files.map((file) => file.path);
  const isLive = detail.compare.kind === 'live';
  const labels = sideLabels(entry, detail.compare);
  const selectedCount = selection.selected.size;
  const isEmptyLive = isLive && detail.load.kind === 'ready' && files.length === 0;
  const staleness = isLive && stale?.dir === detail.dir && stale.checkpointId === detail.checkpointId ? stale.reason : undefined;
  const isPinned = entry.isPinned === true;

  function onKeyDown(event: KeyboardEvent<HTMLElement>): void {
    const target = event.target;
    if (event.key.toLowerCase() !== 'r' || event.ctrlKey || event.metaKey || event.altKey) return;
    if (target instanceof HTMLElement && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
    event.preventDefault();
    if (isEmptyLive) return;
    void planRestore(event.shiftKey ? 'all' : 'selected');
  }

  const compareChoices: readonly (readonly [string, string, CompareTarget | undefined])[] = [
    ['live', 'Live directory', { kind: 'live' }],
    ['newer', 'Next checkpoint', newer === undefined ? undefined : { kind: 'checkpoint', id: newer, isOlder: false }],
    ['older', 'Previous checkpoint', older === undefined ? undefined : { kind: 'checkpoint', id: older, isOlder: true }],
  ];
  const currentChoice = detail.compare.kind === 'live' ? 'live' : detail.compare.id === newer ? 'newer' : detail.compare.id === older ? 'older' : 'other';

  return (
    <section className="checkpoint-detail" data-testid="checkpoint-detail" data-state={detail.load.kind} data-stale={staleness !== undefined} onKeyDown={onKeyDown} aria-label="Checkpoint">
      <CheckpointHeader
        entry={entry}
        laneClass={sessionColourClass(entry.attribution.sessionId)}
        onUndoRestore={() => void planUndoOfRestorePoint(entry.dir, entry.id, entry.restores)}
        onShowRestored={(id) => navigate({ screen: 'timeline', dir: entry.dir, checkpointId: id })}
      />
      {lastRestore !== undefined && lastRestore.dir === entry.dir && (
        <RestoreOutcome
          result={lastRestore.result}
          wasUndo={lastRestore.wasUndo}
          onUndo={
            changedPaths(lastRestore.result).length === 0
              ? undefined
              : () => void planUndoRestore(lastRestore.dir, lastRestore.result.preRollback.id, changedPaths(lastRestore.result), lastRestore.checkpointId)
          }
          onShowRestorePoint={() => navigate({ screen: 'timeline', dir: lastRestore.dir, checkpointId: lastRestore.result.preRollback.id })}
          onDismiss={dismissLastRestore}
        />
      )}
      <div className="detail-toolbar">
        <span className="muted">Compare with</span>
        <div className="segmented" role="group" aria-label="Compare with">
          {compareChoices.map(([key, label, target]) => (
            <button
              key={key}
              type="button"
              aria-pressed={currentChoice === key}
              disabled={target === undefined}
              data-testid={`compare-${key}`}
              onClick={() => target !== undefined && void compareWith(target)}
            >
              {label}
            </button>
          ))}
          {currentChoice === 'other' && detail.compare.kind === 'checkpoint' && <button type="button" aria-pressed="true">{shortId(detail.compare.id)}</button>}
        </div>
        <button type="button" className="button button-quiet button-small" onClick={() => void refreshDetail()} title="Compare again with the directory as it is now">
          Refresh
        </button>
        <span className="spacer" />
        <button
          type="button"
          className="button button-small"
          data-testid="pin-toggle"
          aria-pressed={isPinned}
          disabled={entry.source === 'hermes'}
          onClick={() => void pinCheckpoint(entry.dir, entry.id, !isPinned)}
          title={entry.source === 'hermes' ? "Hermes Agent's checkpoints are read only" : isPinned ? 'Unpin: retention and the size cap may drop it again' : 'Pin: retention and the size cap never drop it'}
        >
          {isPinned ? 'Pinned' : 'Pin'}
        </button>
      </div>
      <div className="detail-files-head">
        <span data-testid="diff-summary">
          {detail.load.kind === 'loading' && files.length === 0
            ? 'Comparing…'
            : isEmptyLive
              ? 'No difference: the live directory matches this checkpoint.'
              : `${detail.totalFiles.toLocaleString('en-US')} ${detail.totalFiles === 1 ? 'file differs' : 'files differ'} (${labels.from} → ${labels.to})`}
        </span>
        {staleness !== undefined && (
          <span className="badge" data-kind="stale" data-testid="diff-stale" title="The live directory changed since this comparison, or the core cannot be asked now">
            {staleness === 'changed' ? 'out of date: comparing again…' : 'out of date: cannot compare now'}
          </span>
        )}
        <span className="subtle detail-hint">Drag, Shift- or Ctrl-click to select · Space toggles · Ctrl+A all</span>
        <span className="spacer" />
        <button
          type="button"
          className="button"
          data-testid="restore-selected"
          disabled={selectedCount === 0}
          onClick={() => void planRestore('selected')}
          title="Restore only the selected files (R); shows the plan first"
        >
          Restore selected{selectedCount > 0 ? ` (${selectedCount})` : ''}
        </button>
        <button
          type="button"
          className="button button-primary"
          data-testid="restore-all"
          disabled={isEmptyLive}
          onClick={() => void planRestore('all')}
          title="Restore the whole directory to this checkpoint (Shift+R); shows the plan first"
        >
          Restore all
        </button>
      </div>
      {detail.load.kind === 'failed' && <ErrorNotice error={detail.load.error} onRetry={() => void refreshDetail()} />}
      <div className="detail-split" hidden={isEmptyLive}>
        <SelectableList
          keys={keys}
          selection={selection}
          onSelectionChange={changeFileSelection}
          onActivate={(path) => void showFileDiff(path)}
          rowHeight={26}
          label="Changed files"
          testId="changed-files"
          renderRow={(row) => {
            const file = files[row.index];
            return file === undefined ? null : <ChangedFileRow file={file} isSelected={row.isSelected} />;
          }}
        />
        <div className="detail-diff">
          {fileDiff?.load.kind === 'failed' && <ErrorNotice error={fileDiff.load.error} />}
          {fileDiff?.diff !== undefined && (
            <DiffView
              key={`${fileDiff.path}:${labels.from}:${labels.to}`}
              diff={{
                path: fileDiff.diff.path,
                status: fileDiff.diff.status,
                isBinary: fileDiff.diff.kind === 'binary',
                note: kindNotes[fileDiff.diff.kind],
                hunks: fileDiff.diff.hunks,
                isTruncated: fileDiff.diff.omittedLines > 0,
                truncatedNote: `${fileDiff.diff.omittedLines.toLocaleString('en-US')} more diff lines are not shown.`,
                fromLabel: labels.from,
                toLabel: labels.to,
              }}
            />
          )}
          {fileDiff === undefined && files.length > 0 && <p className="muted">Move the cursor onto a file to see its diff.</p>}
        </div>
      </div>
    </section>
  );
}
