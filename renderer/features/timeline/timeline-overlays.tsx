import { FileHistoryPanel } from './file-history-panel';
import { PastSearchPanel } from './past-search-panel';
import { RewindDialog } from '../../components/rewind-dialog';
import type { FileVersionEntry, SearchHit } from '../../../shared/contract/checkpoints-history-contract';
import type { LoadState } from '../../model/load-state';
import { useAppStore } from '../../stores/store-context';
import { useRewindDialog } from '../../stores/use-rewind-dialog';
import { RestoreDialog } from './restore-dialog';

function panelState(load: LoadState): 'loading' | 'ready' | 'failed' {
  return load.kind === 'failed' ? 'failed' : load.kind === 'ready' ? 'ready' : 'loading';
}

/** Opens a checkpoint compared as asked (`next`: 'live' or a checkpoint id), with the cursor on `path`, then shows it. */
function useShowCheckpoint(): (dir: string, checkpointId: string, path: string, next: string) => void {
  const openCheckpoint = useAppStore((state) => state.openCheckpoint);
  const navigate = useAppStore((state) => state.navigate);
  return (dir, checkpointId, path, next) => {
    const compare =
      next === 'live' ? ({ kind: 'live' } as const) : ({ kind: 'checkpoint', id: next, isOlder: false } as const);
    void openCheckpoint(dir, checkpointId, { compare, focus: path });
    navigate({ screen: 'timeline', dir, checkpointId });
  };
}

/** A file's history at the side: compare a version with the live file, or restore it. */
function FileHistoryOverlay() {
  const fileHistory = useAppStore((state) => state.fileHistory);
  const planRestoreOf = useAppStore((state) => state.planRestoreOf);
  const closeFileHistory = useAppStore((state) => state.closeFileHistory);
  const show = useShowCheckpoint();
  if (fileHistory === undefined) return null;
  return (
    <div
      className="overlay overlay-side"
      onClick={(event) => event.target === event.currentTarget && closeFileHistory()}
    >
      <FileHistoryPanel
        path={fileHistory.path}
        state={panelState(fileHistory.load)}
        error={fileHistory.load.kind === 'failed' ? fileHistory.load.error : undefined}
        entries={fileHistory.entries}
        checkpoints={fileHistory.checkpoints}
        onCompare={(entry: FileVersionEntry) => {
          closeFileHistory();
          show(fileHistory.dir, entry.checkpoint.id, fileHistory.path, 'live');
        }}
        onRestore={(entry: FileVersionEntry) => {
          closeFileHistory();
          void planRestoreOf(fileHistory.dir, entry.checkpoint.id, [fileHistory.path]);
        }}
        onClose={closeFileHistory}
      />
    </div>
  );
}

/** The answer of a search of the past at the side: a hit opens its checkpoint at that file. */
function PastSearchOverlay() {
  const pastSearch = useAppStore((state) => state.pastSearch);
  const closePastSearch = useAppStore((state) => state.closePastSearch);
  const show = useShowCheckpoint();
  if (pastSearch === undefined) return null;
  return (
    <div
      className="overlay overlay-side"
      onClick={(event) => event.target === event.currentTarget && closePastSearch()}
    >
      <PastSearchPanel
        text={pastSearch.text}
        state={panelState(pastSearch.load)}
        error={pastSearch.load.kind === 'failed' ? pastSearch.load.error : undefined}
        hits={pastSearch.hits}
        checkpoints={pastSearch.checkpoints}
        isTruncated={pastSearch.isTruncated}
        onOpen={(hit: SearchHit) => {
          closePastSearch();
          show(pastSearch.dir, hit.checkpoint.id, hit.path, hit.nextCheckpoint);
        }}
        onClose={closePastSearch}
      />
    </div>
  );
}

/** A turn's rewind started from a timeline row (the transcript's turns show when that session's is loaded). */
function TimelineRewind() {
  const dialog = useRewindDialog();
  return dialog === undefined ? null : <RewindDialog {...dialog} />;
}

/**
 * What opens over the timeline: a restore's plan, a file's history, the answer of a search of the
 * past, and a turn's rewind started from a timeline row.
 */
export function TimelineOverlays() {
  const restore = useAppStore((state) => state.restore);
  return (
    <>
      <FileHistoryOverlay />
      <PastSearchOverlay />
      {restore !== undefined && <RestoreDialog flow={restore} />}
      <TimelineRewind />
    </>
  );
}
