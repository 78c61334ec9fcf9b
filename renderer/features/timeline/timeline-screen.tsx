import { useEffect, useMemo } from 'react';
import { ErrorNotice } from '../../components/error-notice';
import { DirectoryPicker } from './directory-picker';
import { ProgressBar } from './progress-bar';
import { useNow } from '../../components/use-now';
import { defaultDirectory, orderDirectories } from '../../model/directory-order';
import { filterTimeline, isFilterEmpty, type TimelineEntry } from '../../model/timeline-filter';
import { useAppStore } from '../../stores/store-context';
import { CheckpointNowForm } from './checkpoint-now-form';
import { RetentionSummary } from './retention-summary';
import { PaneSeparator } from './pane-separator';
import { detailWidthBounds } from '../../stores/layout-slice';
import { CheckpointDetail } from './checkpoint-detail';
import { PastSearchField } from './past-search-field';
import { TimelineOverlays } from './timeline-overlays';
import { TimelineEmpty } from './timeline-empty';
import { TimelineFilters } from './timeline-filters';
import { TimelineList } from './timeline-list';
import { DroppedSection, droppedText } from './dropped-section';
import { connectTargetOf } from '../../model/connect-target';

const noEntries: readonly TimelineEntry[] = [];

/**
 * The routed directory and checkpoint, and the folders in the picker's order. Opens on the folder
 * with the most recent activity when the route names none; opens the routed timeline and checkpoint.
 */
function useTimelineRoute() {
  const directories = useAppStore((state) => state.checkpointDirectories);
  const route = useAppStore((state) => state.route);
  const home = useAppStore((state) => state.appInfo?.home);
  const memoryDirectories = useAppStore((state) => state.memoryDirectories);
  const timelineDir = useAppStore((state) => state.timeline?.dir);
  const navigate = useAppStore((state) => state.navigate);
  const openTimeline = useAppStore((state) => state.openTimeline);
  const openCheckpoint = useAppStore((state) => state.openCheckpoint);
  const closeCheckpoint = useAppStore((state) => state.closeCheckpoint);
  const routeDir = route.screen === 'timeline' ? route.dir : undefined;
  const checkpointId = route.screen === 'timeline' ? route.checkpointId : undefined;
  const ordered = useMemo(
    () =>
      orderDirectories(directories, [
        ...(home === undefined ? [] : [home]),
        ...memoryDirectories.map((directory) => directory.path),
      ]),
    [directories, home, memoryDirectories],
  );
  // Opens on the folder with the most recent activity, once the core said where its own folders are (they come last).
  const fallbackDir = home === undefined ? undefined : defaultDirectory(ordered);

  useEffect(() => {
    if (routeDir === undefined && fallbackDir !== undefined)
      navigate({ screen: 'timeline', dir: fallbackDir }, { replace: true });
  }, [routeDir, fallbackDir, navigate]);

  useEffect(() => {
    if (routeDir !== undefined && routeDir !== timelineDir) void openTimeline(routeDir);
  }, [routeDir, timelineDir, openTimeline]);

  useEffect(() => {
    if (routeDir !== undefined && checkpointId !== undefined) void openCheckpoint(routeDir, checkpointId);
    else closeCheckpoint();
  }, [routeDir, checkpointId, openCheckpoint, closeCheckpoint]);

  return { routeDir, checkpointId, ordered, hasDirectories: directories.length > 0 };
}

/** Before any folder has checkpoints: why they could not be listed, how to get some, or that they are loading. */
function TimelineStart() {
  const directoriesLoad = useAppStore((state) => state.directoriesLoad);
  const appInfo = useAppStore((state) => state.appInfo);
  const connectTarget = useMemo(() => connectTargetOf(appInfo), [appInfo]);
  const loadCheckpointDirectories = useAppStore((state) => state.loadCheckpointDirectories);
  if (directoriesLoad.kind === 'failed') {
    return (
      <div className="screen screen-scroll">
        <ErrorNotice error={directoriesLoad.error} onRetry={() => void loadCheckpointDirectories()} />
      </div>
    );
  }
  return directoriesLoad.kind === 'ready' ? (
    <TimelineEmpty target={connectTarget} />
  ) : (
    <div className="screen" data-testid="timeline-loading" />
  );
}

/** Notices above the list: the timeline failed to load, is still loading, or a path filter is still searching. */
function TimelineNotices({
  routeDir,
  all,
}: {
  readonly routeDir: string | undefined;
  readonly all: readonly TimelineEntry[];
}) {
  const timeline = useAppStore((state) => state.timeline);
  const fileFilter = useAppStore((state) => state.fileFilter);
  const openTimeline = useAppStore((state) => state.openTimeline);
  const maxSnapshots = useAppStore((state) => state.config?.checkpoints.maxSnapshots);
  const keepDroppedDays = useAppStore((state) => state.config?.checkpoints.keepDroppedDays) ?? 7;
  // A lowered checkpoints.maxSnapshots cuts at the next checkpoint: said before it applies.
  const overLimit =
    timeline !== undefined && timeline.dir === routeDir && maxSnapshots !== undefined && timeline.total > maxSnapshots
      ? timeline.total + 1 - maxSnapshots
      : 0;
  return (
    <>
      {overLimit > 0 && (
        <div
          className="screen-notice retention-notice"
          role="status"
          data-testid="retention-pending-cut"
          data-count={overLimit}
        >
          The next checkpoint of this folder will drop {overLimit} old checkpoint{overLimit === 1 ? '' : 's'}:
          checkpoints.maxSnapshots is {maxSnapshots}. They stay restorable for {keepDroppedDays} days under “Recently
          dropped”; raise maxSnapshots in config.json to keep them on the timeline.
        </div>
      )}
      {timeline !== undefined && timeline.load.kind === 'failed' && (
        <div className="screen-notice">
          <ErrorNotice
            error={timeline.load.error}
            onRetry={() => routeDir !== undefined && void openTimeline(routeDir)}
          />
        </div>
      )}
      {timeline !== undefined && !timeline.isComplete && timeline.entries.length > 0 && (
        <div className="screen-notice">
          <ProgressBar
            label="Loading the timeline"
            done={timeline.entries.length}
            total={timeline.total}
            testId="timeline-progress"
          />
        </div>
      )}
      {fileFilter !== undefined && !fileFilter.isDone && (
        <div className="screen-notice">
          <ProgressBar
            label={`Finding the checkpoints that changed ${fileFilter.path}`}
            done={fileFilter.checked}
            total={all.length}
            testId="file-filter-progress"
          />
        </div>
      )}
    </>
  );
}

/** The open checkpoint's detail beside the list, or what to do when none is open (or it is not on this timeline). */
function CheckpointPane({
  all,
  checkpointId,
  isComplete,
}: {
  readonly all: readonly TimelineEntry[];
  readonly checkpointId: string | undefined;
  readonly isComplete: boolean;
}) {
  const index = all.findIndex((entry) => entry.id === checkpointId);
  const selected = all[index];
  const dropped = useAppStore((state) => state.dropped?.entries.find((entry) => entry.id === checkpointId));
  const planRestoreOf = useAppStore((state) => state.planRestoreOf);
  const dir = useAppStore((state) => state.dropped?.dir);
  if (selected === undefined && dropped !== undefined && dir !== undefined) {
    // A chip or a link to a checkpoint retention took off the timeline: where it is, and the way back.
    return (
      <div className="checkpoint-detail checkpoint-placeholder" data-testid="dropped-checkpoint" data-id={dropped.id}>
        <p>
          Checkpoint d{dropped.number} ({dropped.id.slice(0, 8)}, “{dropped.reason}”) is no longer on the timeline: it
          was {droppedText(dropped)}.
        </p>
        {dropped.expiredAt === undefined && (
          <button
            type="button"
            data-testid="dropped-checkpoint-restore"
            onClick={() => void planRestoreOf(dir, dropped.id, [])}
          >
            Restore from it…
          </button>
        )}
      </div>
    );
  }
  return selected !== undefined ? (
    <CheckpointDetail entry={selected} newer={all[index - 1]?.id} older={selected.parent ?? all[index + 1]?.id} />
  ) : (
    <div className="checkpoint-detail checkpoint-placeholder muted">
      {checkpointId !== undefined && isComplete
        ? 'That checkpoint is not on this timeline (pruned, or another directory’s).'
        : 'Pick a checkpoint to see what changed since, and to restore all of it or the files you select. ↑ ↓ step through them.'}
    </div>
  );
}

/** The checkpoint timeline of one directory, from every session, with a checkpoint's detail beside it. */
export function TimelineScreen() {
  const timeline = useAppStore((state) => state.timeline);
  const filter = useAppStore((state) => state.timelineFilter);
  const fileFilter = useAppStore((state) => state.fileFilter);
  const navigate = useAppStore((state) => state.navigate);
  const checkpointNow = useAppStore((state) => state.checkpointNow);
  const retention = useAppStore((state) => state.config?.checkpoints);
  const isConnected = useAppStore((state) => state.connection.kind === 'connected');
  const detailWidth = useAppStore((state) => state.detailWidth);
  const resizeDetail = useAppStore((state) => state.resizeDetail);
  const now = useNow(30_000);
  const { routeDir, checkpointId, ordered, hasDirectories } = useTimelineRoute();
  const all = timeline !== undefined && timeline.dir === routeDir ? timeline.entries : noEntries;
  const pinned = useMemo(() => all.filter((entry) => entry.isPinned === true).length, [all]);
  const visible = useMemo(() => {
    const filtered = filterTimeline(all, filter);
    return fileFilter === undefined ? filtered : filtered.filter((entry) => fileFilter.matches.has(entry.id));
  }, [all, filter, fileFilter]);

  if (!hasDirectories && routeDir === undefined) return <TimelineStart />;
  const isFiltered = !isFilterEmpty(filter) || fileFilter !== undefined;
  return (
    <div className="screen" data-testid="timeline-screen">
      <div className="screen-header">
        <h2>Timeline</h2>
        <DirectoryPicker
          items={ordered}
          current={routeDir}
          now={now}
          onChoose={(dir) => navigate({ screen: 'timeline', dir })}
        />
        <RetentionSummary
          total={timeline?.total ?? 0}
          visible={visible.length}
          isFiltered={isFiltered}
          isCurrent={isConnected}
          maxSnapshots={retention?.maxSnapshots}
          maxStoreMiB={retention?.maxStoreMiB}
          pinned={pinned}
        />
        {routeDir !== undefined && <CheckpointNowForm onCheckpoint={(name) => checkpointNow(routeDir, name)} />}
        <span className="spacer" />
        {routeDir !== undefined && <PastSearchField dir={routeDir} />}
        <TimelineFilters entries={all} />
      </div>
      <TimelineNotices routeDir={routeDir} all={all} />
      <div
        className="timeline-body"
        style={{ gridTemplateColumns: `minmax(240px, 1fr) auto minmax(320px, ${detailWidth}%)` }}
      >
        <div className="timeline-column">
          {routeDir !== undefined && (
            <TimelineList
              dir={routeDir}
              entries={visible}
              allEntries={all}
              selectedId={checkpointId}
              isLoading={timeline?.load.kind === 'loading'}
            />
          )}
          {routeDir !== undefined && <DroppedSection dir={routeDir} />}
          {visible.length === 0 && timeline?.load.kind === 'ready' && (
            <p className="muted timeline-none">
              {isFiltered ? 'No checkpoint matches the filter.' : 'This directory has no checkpoints.'}
            </p>
          )}
        </div>
        <PaneSeparator
          value={detailWidth}
          min={detailWidthBounds.min}
          max={detailWidthBounds.max}
          label="Width of the checkpoint detail"
          onChange={resizeDetail}
          testId="detail-separator"
        />
        <CheckpointPane all={all} checkpointId={checkpointId} isComplete={timeline?.isComplete === true} />
      </div>
      <TimelineOverlays />
    </div>
  );
}
