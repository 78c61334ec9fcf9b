import { useMemo, type KeyboardEvent } from 'react';
import { ChangedFileRow, ChangedFolderRow } from '../../components/changed-file-row';
import { CheckpointHeader } from '../../components/checkpoint-header';
import { ErrorNotice } from '../../components/error-notice';
import { RestoreOutcome } from '../../components/restore-outcome';
import { SelectableList } from '../../components/selectable-list';
import { StackedDiff } from '../../components/stacked-diff';
import { fileTreeRows } from '../../model/file-tree';
import { shortId } from '../../model/format';
import { changedPaths } from '../../model/restore-plan';
import { sessionColourClass } from '../../model/session-lanes';
import type { TimelineEntry } from '../../model/timeline-filter';
import { useAppStore } from '../../stores/store-context';
import { DetailToolbar, type OpenCheckpointProps } from './detail-toolbar';

function sideLabels(
  entry: TimelineEntry,
  compare: { readonly kind: 'live' } | { readonly kind: 'checkpoint'; readonly id: string; readonly isOlder: boolean },
): { from: string; to: string } {
  if (compare.kind === 'live') return { from: shortId(entry.id), to: 'live' };
  return compare.isOlder
    ? { from: shortId(compare.id), to: shortId(entry.id) }
    : { from: shortId(entry.id), to: shortId(compare.id) };
}

/**
 * A checkpoint: what differs, as a file tree (a click shows a file's diff, a checkbox selects it
 * for restore) beside the diffs (the file under the cursor, or all of them stacked); restore all,
 * the selected files, one file, or lines picked in a diff, each with its plan and its undo.
 */
export function CheckpointDetail({ entry, newer, older }: OpenCheckpointProps) {
  const detail = useAppStore((state) => state.detail);
  const selection = useAppStore((state) => state.fileSelection);
  const fileDiffs = useAppStore((state) => state.fileDiffs);
  const focusedFile = useAppStore((state) => state.focusedFile);
  const diffMode = useAppStore((state) => state.diffMode);
  const lineSelection = useAppStore((state) => state.lineSelection);
  const lastRestore = useAppStore((state) => state.lastRestore);
  const navigate = useAppStore((state) => state.navigate);
  const refreshDetail = useAppStore((state) => state.refreshDetail);
  const changeFileSelection = useAppStore((state) => state.changeFileSelection);
  const showFileDiff = useAppStore((state) => state.showFileDiff);
  const loadFileDiffs = useAppStore((state) => state.loadFileDiffs);
  const changeLineSelection = useAppStore((state) => state.changeLineSelection);
  const planRestore = useAppStore((state) => state.planRestore);
  const planRestoreOf = useAppStore((state) => state.planRestoreOf);
  const planRestoreLines = useAppStore((state) => state.planRestoreLines);
  const planUndoRestore = useAppStore((state) => state.planUndoRestore);
  const planUndoOfRestorePoint = useAppStore((state) => state.planUndoOfRestorePoint);
  const dismissLastRestore = useAppStore((state) => state.dismissLastRestore);
  const openFileHistory = useAppStore((state) => state.openFileHistory);
  const renameCheckpoint = useAppStore((state) => state.renameCheckpoint);
  const stale = useAppStore((state) => state.staleComparison);
  const files = useMemo(() => detail?.files ?? [], [detail?.files]);
  const tree = useMemo(() => fileTreeRows(files.map((file) => file.path)), [files]);
  const byPath = useMemo(() => new Map(files.map((file) => [file.path, file])), [files]);
  const groups = useMemo(
    () => new Map(tree.flatMap((row) => (row.kind === 'folder' ? [[row.key, row.files] as const] : []))),
    [tree],
  );
  const skipped = useMemo(() => entry.skipped.filter((item) => item.reason !== 'more'), [entry.skipped]);
  if (detail?.checkpointId !== entry.id)
    return <div className="checkpoint-detail" data-testid="checkpoint-detail" data-state="loading" />;

  const keys = tree.map((row) => row.key);
  const isLive = detail.compare.kind === 'live';
  const labels = sideLabels(entry, detail.compare);
  const selectedCount = files.filter((file) => selection.selected.has(file.path)).length;
  const isEmptyLive = isLive && detail.load.kind === 'ready' && files.length === 0;
  const staleness =
    isLive && stale?.dir === detail.dir && stale.checkpointId === detail.checkpointId ? stale.reason : undefined;
  const focused = focusedFile === undefined ? undefined : byPath.get(focusedFile);
  const shownFiles = diffMode === 'all' ? files : focused === undefined ? [] : [focused];
  const restoreFile = (path: string): void => void planRestoreOf(detail.dir, detail.checkpointId, [path]);
  const showHistory = (path: string): void => void openFileHistory(detail.dir, path);

  function onKeyDown(event: KeyboardEvent<HTMLElement>): void {
    const target = event.target;
    if (event.key.toLowerCase() !== 'r' || event.ctrlKey || event.metaKey || event.altKey) return;
    if (target instanceof HTMLElement && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
    event.preventDefault();
    if (isEmptyLive) return;
    void planRestore(event.shiftKey ? 'all' : 'selected');
  }

  return (
    <section
      className="checkpoint-detail"
      data-testid="checkpoint-detail"
      data-state={detail.load.kind}
      data-stale={staleness !== undefined}
      onKeyDown={onKeyDown}
      aria-label="Checkpoint"
    >
      <CheckpointHeader
        entry={entry}
        laneClass={sessionColourClass(entry.attribution.sessionId)}
        onUndoRestore={() => void planUndoOfRestorePoint(entry.dir, entry.id, entry.restores)}
        onShowRestored={(id) => navigate({ screen: 'timeline', dir: entry.dir, checkpointId: id })}
        onRename={entry.source === 'hermes' ? undefined : (name) => renameCheckpoint(entry.dir, entry.id, name)}
      />
      {lastRestore !== undefined && lastRestore.dir === entry.dir && (
        <RestoreOutcome
          result={lastRestore.result}
          wasUndo={lastRestore.wasUndo}
          onUndo={
            changedPaths(lastRestore.result).length === 0
              ? undefined
              : () =>
                  void planUndoRestore(
                    lastRestore.dir,
                    lastRestore.result.preRollback.id,
                    changedPaths(lastRestore.result),
                    lastRestore.checkpointId,
                  )
          }
          onShowRestorePoint={() =>
            navigate({ screen: 'timeline', dir: lastRestore.dir, checkpointId: lastRestore.result.preRollback.id })
          }
          onDismiss={dismissLastRestore}
        />
      )}
      <DetailToolbar entry={entry} newer={newer} older={older} />
      <div className="detail-files-head">
        <span data-testid="diff-summary">
          {detail.load.kind === 'loading' && files.length === 0
            ? 'Comparing…'
            : isEmptyLive
              ? 'No difference: the live directory matches this checkpoint.'
              : `${detail.totalFiles.toLocaleString('en-US')} ${detail.totalFiles === 1 ? 'file differs' : 'files differ'} (${labels.from} → ${labels.to})`}
        </span>
        {staleness !== undefined && (
          <span
            className="badge"
            data-kind="stale"
            data-testid="diff-stale"
            title="The live directory changed since this comparison, or the core cannot be asked now"
          >
            {staleness === 'changed' ? 'out of date: comparing again…' : 'out of date: cannot compare now'}
          </span>
        )}
        <span className="subtle detail-hint">Click a file to see it · tick, drag, Shift or Ctrl to select</span>
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
          groups={groups}
          selection={selection}
          onSelectionChange={changeFileSelection}
          onActivate={(path) => void showFileDiff(path)}
          rowHeight={26}
          label="Changed files"
          testId="changed-files"
          renderRow={(row) => {
            const item = tree[row.index];
            if (item === undefined) return null;
            if (item.kind === 'folder') {
              const count = item.files.filter((path) => selection.selected.has(path)).length;
              return (
                <ChangedFolderRow
                  name={item.name}
                  depth={item.depth}
                  count={item.files.length}
                  check={count === 0 ? 'unchecked' : count === item.files.length ? 'checked' : 'mixed'}
                />
              );
            }
            const file = byPath.get(item.key);
            return file === undefined ? null : (
              <ChangedFileRow
                file={file}
                name={item.name}
                depth={item.depth}
                isSelected={row.isSelected}
                onRestore={restoreFile}
                onHistory={showHistory}
              />
            );
          }}
        />
        <div className="detail-diff">
          {shownFiles.length === 0 && files.length > 0 && <p className="muted">Click a file to see its diff.</p>}
          {shownFiles.length > 0 && (
            <StackedDiff
              key={`${labels.from}:${labels.to}:${diffMode}`}
              files={shownFiles}
              diffs={fileDiffs}
              skipped={diffMode === 'all' ? skipped : []}
              focusPath={diffMode === 'all' ? focusedFile : undefined}
              lineSelection={lineSelection}
              canPickLines={isLive}
              onLineSelectionChange={changeLineSelection}
              onVisibleFiles={(paths) => void loadFileDiffs(paths)}
              onRestoreLines={() => void planRestoreLines()}
              actions={{ onRestoreFile: restoreFile, onHistory: showHistory }}
            />
          )}
        </div>
      </div>
    </section>
  );
}
