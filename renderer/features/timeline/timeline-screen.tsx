import { useEffect, useMemo } from 'react';
import { ErrorNotice } from '../../components/error-notice';
import { DirectoryPicker } from '../../components/directory-picker';
import { ProgressBar } from '../../components/progress-bar';
import { useNow } from '../../components/use-now';
import { defaultDirectory, orderDirectories } from '../../model/directory-order';
import { plural } from '../../model/format';
import { filterTimeline, isFilterEmpty, type TimelineEntry } from '../../model/timeline-filter';
import { useAppStore } from '../../stores/store-context';
import { CheckpointDetail } from './checkpoint-detail';
import { RestoreDialog } from './restore-dialog';
import { TimelineEmpty } from './timeline-empty';
import { TimelineFilters } from './timeline-filters';
import { TimelineList } from './timeline-list';
import { connectTargetOf } from '../../model/connect-target';

const noEntries: readonly TimelineEntry[] = [];

/** The checkpoint timeline of one directory, from every session, with a checkpoint's detail beside it. */
export function TimelineScreen() {
  const directories = useAppStore((state) => state.checkpointDirectories);
  const directoriesLoad = useAppStore((state) => state.directoriesLoad);
  const timeline = useAppStore((state) => state.timeline);
  const filter = useAppStore((state) => state.timelineFilter);
  const fileFilter = useAppStore((state) => state.fileFilter);
  const restore = useAppStore((state) => state.restore);
  const route = useAppStore((state) => state.route);
  const appInfo = useAppStore((state) => state.appInfo);
  const connectTarget = useMemo(() => connectTargetOf(appInfo), [appInfo]);
  const navigate = useAppStore((state) => state.navigate);
  const openTimeline = useAppStore((state) => state.openTimeline);
  const openCheckpoint = useAppStore((state) => state.openCheckpoint);
  const closeCheckpoint = useAppStore((state) => state.closeCheckpoint);
  const loadCheckpointDirectories = useAppStore((state) => state.loadCheckpointDirectories);
  const checkpointNow = useAppStore((state) => state.checkpointNow);
  const retention = useAppStore((state) => state.config?.checkpoints);
  const memoryDirectories = useAppStore((state) => state.memoryDirectories);
  const isConnected = useAppStore((state) => state.connection.kind === 'connected');
  const now = useNow(30_000);
  const routeDir = route.screen === 'timeline' ? route.dir : undefined;
  const checkpointId = route.screen === 'timeline' ? route.checkpointId : undefined;
  const home = appInfo?.home;
  const ordered = useMemo(() => orderDirectories(directories, [...(home === undefined ? [] : [home]), ...memoryDirectories.map((directory) => directory.path)]), [directories, home, memoryDirectories]);
  // Opens on the folder with the most recent activity, once the core said where its own folders are (they come last).
  const fallbackDir = home === undefined ? undefined : defaultDirectory(ordered);

  useEffect(() => {
    if (routeDir === undefined && fallbackDir !== undefined) navigate({ screen: 'timeline', dir: fallbackDir }, { replace: true });
  }, [routeDir, fallbackDir, navigate]);

  const timelineDir = timeline?.dir;
  useEffect(() => {
    if (routeDir !== undefined && routeDir !== timelineDir) void openTimeline(routeDir);
  }, [routeDir, timelineDir, openTimeline]);

  useEffect(() => {
    if (routeDir !== undefined && checkpointId !== undefined) void openCheckpoint(routeDir, checkpointId);
    else closeCheckpoint();
  }, [routeDir, checkpointId, openCheckpoint, closeCheckpoint]);

  const all = timeline !== undefined && timeline.dir === routeDir ? timeline.entries : noEntries;
  const visible = useMemo(() => {
    const filtered = filterTimeline(all, filter);
    return fileFilter === undefined ? filtered : filtered.filter((entry) => fileFilter.matches.has(entry.id));
  }, [all, filter, fileFilter]);

  if (directories.length === 0 && routeDir === undefined) {
    if (directoriesLoad.kind === 'failed') {
      return (
        <div className="screen screen-scroll">
          <ErrorNotice error={directoriesLoad.error} onRetry={() => void loadCheckpointDirectories()} />
        </div>
      );
    }
    return directoriesLoad.kind === 'ready' ? <TimelineEmpty target={connectTarget} /> : <div className="screen" data-testid="timeline-loading" />;
  }

  const index = all.findIndex((entry) => entry.id === checkpointId);
  const selected = all[index];
  const isFiltered = !isFilterEmpty(filter) || fileFilter !== undefined;

  return (
    <div className="screen" data-testid="timeline-screen">
      <div className="screen-header">
        <h2>Timeline</h2>
        <DirectoryPicker items={ordered} current={routeDir} now={now} onChoose={(dir) => navigate({ screen: 'timeline', dir })} />
        <span className="muted" data-testid="timeline-count" data-state={isConnected ? 'current' : 'not-current'} title={isConnected ? undefined : 'Not connected: the count is as it was when the link dropped'}>
          {isFiltered ? `${visible.length.toLocaleString('en-US')} of ` : ''}
          {plural(timeline?.total ?? 0, 'checkpoint')}
        </span>
        {retention !== undefined && (
          <span
            className="subtle"
            data-testid="timeline-retention"
            title={`The newest ${retention.maxSnapshots} checkpoints of each folder are kept (checkpoints.maxSnapshots), ${retention.maxStoreMiB} MiB in all (checkpoints.maxStoreMiB); pinned ones always. Every drop is reported.`}
          >
            keeps {retention.maxSnapshots.toLocaleString('en-US')} per folder
          </span>
        )}
        {routeDir !== undefined && (
          <button type="button" className="button button-small" data-testid="checkpoint-now" onClick={() => void checkpointNow(routeDir)} title="Take a checkpoint of this directory now">
            Checkpoint now
          </button>
        )}
        <span className="spacer" />
        <TimelineFilters entries={all} />
      </div>
      {timeline !== undefined && timeline.load.kind === 'failed' && (
        <div className="screen-notice">
          <ErrorNotice error={timeline.load.error} onRetry={() => routeDir !== undefined && void openTimeline(routeDir)} />
        </div>
      )}
      {timeline !== undefined && !timeline.isComplete && timeline.entries.length > 0 && (
        <div className="screen-notice">
          <ProgressBar label="Loading the timeline" done={timeline.entries.length} total={timeline.total} testId="timeline-progress" />
        </div>
      )}
      {fileFilter !== undefined && !fileFilter.isDone && (
        <div className="screen-notice">
          <ProgressBar label={`Finding the checkpoints that changed ${fileFilter.path}`} done={fileFilter.checked} total={all.length} testId="file-filter-progress" />
        </div>
      )}
      <div className="timeline-body">
        <div className="timeline-column">
          {routeDir !== undefined && (
            <TimelineList dir={routeDir} entries={visible} allEntries={all} selectedId={checkpointId} isLoading={timeline?.load.kind === 'loading'} />
          )}
          {visible.length === 0 && timeline?.load.kind === 'ready' && (
            <p className="muted timeline-none">{isFiltered ? 'No checkpoint matches the filter.' : 'This directory has no checkpoints.'}</p>
          )}
        </div>
        {selected !== undefined ? (
          <CheckpointDetail entry={selected} newer={all[index - 1]?.id} older={selected.parent ?? all[index + 1]?.id} />
        ) : (
          <div className="checkpoint-detail checkpoint-placeholder muted">
            {checkpointId !== undefined && timeline?.isComplete === true
              ? 'That checkpoint is not on this timeline (pruned, or another directory’s).'
              : 'Pick a checkpoint to see what changed since, and to restore all of it or the files you select. ↑ ↓ step through them.'}
          </div>
        )}
      </div>
      {restore !== undefined && <RestoreDialog flow={restore} />}
    </div>
  );
}
