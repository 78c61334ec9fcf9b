import { useMemo, useState, type KeyboardEvent } from 'react';
import { CheckpointHeader } from './checkpoint-header';
import { ErrorNotice } from '../../components/error-notice';
import { RestoreOutcome } from './restore-outcome';
import { filterByPath } from '../../model/file-filter';
import { fileTreeRows } from '../../model/file-tree';
import { shortId } from '../../model/format';
import { rowTitle } from '../../model/row-words';
import { changedPaths } from '../../model/restore-plan';
import { sessionColourClass } from '../../model/session-lanes';
import { selectSessionIdentities } from '../../stores/select-session-identities';
import type { TimelineEntry } from '../../model/timeline-filter';
import type { CheckpointDetail as DetailState } from '../../stores/checkpoint-slice';
import type { StaleComparison } from '../../stores/live-compare-slice';
import { useAppStore } from '../../stores/store-context';
import { turnKey } from '../../stores/timeline-words-slice';
import { ChangedFilesFilter, ChangedFilesList } from './changed-files-list';
import { DetailDiff } from './detail-diff';
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

/** The changed files of the open detail (all, and those the path filter lets through), as a tree, by path, and by folder; the paths the checkpoint did not store. */
function useDetailFiles(detail: DetailState | undefined, entry: TimelineEntry, pathFilter: string) {
  const all = useMemo(() => detail?.files ?? [], [detail?.files]);
  const files = useMemo(() => filterByPath(all, pathFilter), [all, pathFilter]);
  const tree = useMemo(() => fileTreeRows(files.map((file) => file.path)), [files]);
  const byPath = useMemo(() => new Map(all.map((file) => [file.path, file])), [all]);
  const groups = useMemo(
    () => new Map(tree.flatMap((row) => (row.kind === 'folder' ? [[row.key, row.files] as const] : []))),
    [tree],
  );
  const skipped = useMemo(() => entry.skipped.filter((item) => item.reason !== 'more'), [entry.skipped]);
  return { all, files, tree, byPath, groups, skipped };
}

/** R plans restoring the selected files, Shift+R every file; not while typing in a field. Returns whether it was that key. */
function isRestoreKey(event: KeyboardEvent<HTMLElement>): boolean {
  const target = event.target;
  if (event.key.toLowerCase() !== 'r' || event.ctrlKey || event.metaKey || event.altKey) return false;
  return !(target instanceof HTMLElement && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/** What the files' heading says: still comparing, no difference with the live directory, or how many files differ between which sides. */
function diffSummary(
  detail: DetailState,
  fileCount: number,
  isEmptyLive: boolean,
  labels: { readonly from: string; readonly to: string },
): string {
  return detail.load.kind === 'loading' && fileCount === 0
    ? 'Comparing…'
    : isEmptyLive
      ? 'No difference: the live directory matches this checkpoint.'
      : `${detail.totalFiles.toLocaleString('en-US')} ${detail.totalFiles === 1 ? 'file differs' : 'files differ'} (${labels.from} → ${labels.to})`;
}

/** The checkpoint's header: who made it and why, its name (renamable unless Hermes Agent's), and a restore point's undo. */
function DetailHeader({ entry }: { readonly entry: TimelineEntry }) {
  const navigate = useAppStore((state) => state.navigate);
  const planUndoOfRestorePoint = useAppStore((state) => state.planUndoOfRestorePoint);
  const renameCheckpoint = useAppStore((state) => state.renameCheckpoint);
  const identities = useAppStore(selectSessionIdentities);
  const { sessionId, turn } = entry.attribution;
  const brief = useAppStore((state) =>
    sessionId === undefined || turn === undefined ? undefined : state.turnBriefs.get(turnKey(sessionId, turn)),
  );
  return (
    <CheckpointHeader
      entry={entry}
      title={rowTitle(entry, brief, entry.dir).text}
      laneClass={sessionColourClass(entry.attribution.sessionId, identities)}
      onUndoRestore={() => void planUndoOfRestorePoint(entry.dir, entry.id, entry.restores)}
      onShowRestored={(id) => navigate({ screen: 'timeline', dir: entry.dir, checkpointId: id })}
      onRename={entry.source === 'hermes' ? undefined : (name) => renameCheckpoint(entry.dir, entry.id, name)}
    />
  );
}

/** The outcome of the last restore in this directory, with its undo and its restore point. */
function LastRestoreOutcome({ dir }: { readonly dir: string }) {
  const lastRestore = useAppStore((state) => state.lastRestore);
  const navigate = useAppStore((state) => state.navigate);
  const planUndoRestore = useAppStore((state) => state.planUndoRestore);
  const dismissLastRestore = useAppStore((state) => state.dismissLastRestore);
  if (lastRestore === undefined || lastRestore.dir !== dir) return null;
  return (
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
  );
}

/** The files' heading: how many differ between which sides (or that none do), whether that is out of date, and the restore buttons. */
function DetailFilesHead({
  summary,
  staleness,
  selectedCount,
  isEmptyLive,
}: {
  readonly summary: string;
  readonly staleness: StaleComparison['reason'] | undefined;
  readonly selectedCount: number;
  readonly isEmptyLive: boolean;
}) {
  const planRestore = useAppStore((state) => state.planRestore);
  return (
    <div className="detail-files-head">
      <span data-testid="diff-summary">{summary}</span>
      {/* The hint and the "out of date" badge share one cell: the head keeps its size whichever shows, so the diff below never moves (under a pointer that is picking lines) when the folder changes. */}
      <span className="detail-head-note">
        <span className="subtle detail-hint" data-shown={staleness === undefined} aria-hidden={staleness !== undefined}>
          Click a file to see it · tick, drag, Shift or Ctrl to select
        </span>
        <span
          className="badge"
          data-kind="stale"
          data-testid="diff-stale"
          data-shown={staleness !== undefined}
          aria-hidden={staleness === undefined}
          title="The live directory changed since this comparison, or the core cannot be asked now"
        >
          {staleness === 'unreachable' ? 'out of date: cannot compare now' : 'out of date: comparing again…'}
        </span>
      </span>
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
  );
}

/**
 * A checkpoint: what differs, as a file tree (a click shows a file's diff, a checkbox selects it
 * for restore) beside the diffs (the file under the cursor, or all of them stacked); restore all,
 * the selected files, one file, or lines picked in a diff, each with its plan and its undo.
 */
export function CheckpointDetail({ entry, newer, older }: OpenCheckpointProps) {
  const detail = useAppStore((state) => state.detail);
  const selection = useAppStore((state) => state.fileSelection);
  const refreshDetail = useAppStore((state) => state.refreshDetail);
  const planRestore = useAppStore((state) => state.planRestore);
  const planRestoreOf = useAppStore((state) => state.planRestoreOf);
  const openFileHistory = useAppStore((state) => state.openFileHistory);
  const stale = useAppStore((state) => state.staleComparison);
  const [pathFilter, setPathFilter] = useState('');
  const { all, files, tree, byPath, groups, skipped } = useDetailFiles(detail, entry, pathFilter);
  if (detail?.checkpointId !== entry.id)
    return <div className="checkpoint-detail" data-testid="checkpoint-detail" data-state="loading" />;

  const isLive = detail.compare.kind === 'live';
  const labels = sideLabels(entry, detail.compare);
  const selectedCount = all.filter((file) => selection.selected.has(file.path)).length;
  const isEmptyLive = isLive && detail.load.kind === 'ready' && all.length === 0;
  const staleness =
    isLive && stale?.dir === detail.dir && stale.checkpointId === detail.checkpointId ? stale.reason : undefined;
  const restoreFile = (path: string): void => void planRestoreOf(detail.dir, detail.checkpointId, [path]);
  const showHistory = (path: string): void => void openFileHistory(detail.dir, path);

  function onKeyDown(event: KeyboardEvent<HTMLElement>): void {
    if (!isRestoreKey(event)) return;
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
      <DetailHeader entry={entry} />
      <LastRestoreOutcome dir={entry.dir} />
      <DetailToolbar entry={entry} newer={newer} older={older} />
      <DetailFilesHead
        summary={diffSummary(detail, all.length, isEmptyLive, labels)}
        staleness={staleness}
        selectedCount={selectedCount}
        isEmptyLive={isEmptyLive}
      />
      {detail.load.kind === 'failed' && <ErrorNotice error={detail.load.error} onRetry={() => void refreshDetail()} />}
      <div className="detail-split" hidden={isEmptyLive}>
        <div className="changed-files-pane">
          <ChangedFilesFilter
            value={pathFilter}
            shown={files.length}
            total={all.length}
            hiddenSelected={selectedCount - files.filter((file) => selection.selected.has(file.path)).length}
            onChange={setPathFilter}
          />
          <ChangedFilesList
            tree={tree}
            groups={groups}
            byPath={byPath}
            onRestoreFile={restoreFile}
            onHistory={showHistory}
          />
        </div>
        <DetailDiff
          files={files}
          byPath={byPath}
          skipped={skipped}
          comparison={`${labels.from}:${labels.to}`}
          canPickLines
          lineSource={isLive ? undefined : shortId(entry.id)}
          onRestoreFile={restoreFile}
          onHistory={showHistory}
        />
      </div>
    </section>
  );
}
