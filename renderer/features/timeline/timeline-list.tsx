import { useId, useMemo, type KeyboardEvent, type MouseEvent } from 'react';
import { actorKey } from '../../../shared/contract/actor-model';
import type { TurnBrief } from '../../../shared/contract/sessions-contract';
import { CheckpointRowActions } from './checkpoint-row-actions';
import { TimelineDayHeading, TimelineRow, TimelineTurnHeading } from './timeline-row';
import { useNow } from '../../components/use-now';
import { VirtualList, type ElementProps } from './virtual-list';
import { actorColourClass, actorOfEntry, numberedActor } from '../../model/actor-view';
import type { SessionIdentities } from '../../model/session-lanes';
import { selectSessionIdentities } from '../../stores/select-session-identities';
import {
  changesAfter,
  reasonChip,
  rowStats,
  rowTitle,
  statsAfter,
  type ChangeCounts,
  type LiveState,
} from '../../model/row-words';
import { heldState } from '../../model/held-state';
import { timelineColumns } from '../../model/timeline-columns';
import type { TimelineEntry } from '../../model/timeline-filter';
import { timelineItems, type TimelineItem } from '../../model/timeline-items';
import { turnKey } from '../../stores/timeline-words-slice';
import { useAppStore } from '../../stores/store-context';

const entryHeight = 48;
const dayHeight = 28;
const turnHeight = 30;

function heightOf(item: TimelineItem | undefined): number {
  return item?.kind === 'day' ? dayHeight : item?.kind === 'turn' ? turnHeight : entryHeight;
}

/** The open directory's checkpoints, those the filters let through, and which is open. */
export interface TimelineListProps {
  readonly dir: string;
  readonly entries: readonly TimelineEntry[];
  readonly allEntries: readonly TimelineEntry[];
  readonly selectedId: string | undefined;
  readonly isLoading: boolean;
}

/** What every row needs besides its item: lanes, the counts after each checkpoint, the live state, turn briefs, the clock, and its actions. */
interface RowContext {
  readonly dir: string;
  readonly columns: ReadonlyMap<string, number>;
  readonly columnCount: number;
  readonly newestId: string | undefined;
  readonly after: ReadonlyMap<string, ChangeCounts>;
  readonly liveStats: { readonly counts: ChangeCounts | undefined; readonly state: LiveState };
  readonly briefs: ReadonlyMap<string, TurnBrief>;
  readonly now: number;
  /** Sessions' numbers and colours. */
  readonly identities: SessionIdentities;
  /** A memory folder: its rows hold states before and after changes side by side, so each says which. */
  readonly isMemoryFolder: boolean;
  readonly onRestoreAll: (entry: TimelineEntry) => void;
  readonly onRewind: (entry: TimelineEntry) => void;
}

/** The list's items (day and turn headings among the checkpoints) and what their rows need. */
function useTimelineItems({ dir, entries, allEntries }: TimelineListProps): {
  readonly items: readonly TimelineItem[];
  readonly row: RowContext;
} {
  const navigate = useAppStore((state) => state.navigate);
  const planRestoreOf = useAppStore((state) => state.planRestoreOf);
  const planRewind = useAppStore((state) => state.planRewind);
  const briefs = useAppStore((state) => state.turnBriefs);
  const live = useAppStore((state) => state.liveChanges);
  const isConnected = useAppStore((state) => state.connection.kind === 'connected');
  const now = useNow(15_000);
  const identities = useAppStore(selectSessionIdentities);
  const isMemoryFolder = useAppStore((state) => state.memoryDirectories.some((directory) => directory.path === dir));
  const columns = useMemo(() => timelineColumns(allEntries), [allEntries]);
  const after = useMemo(() => changesAfter(allEntries), [allEntries]);
  const dayOf = Math.floor(now / 3_600_000);
  // Headings follow the day; "Today" turns into "Yesterday" within the hour after midnight.
  const items = useMemo(() => timelineItems(entries, dayOf * 3_600_000), [entries, dayOf]);
  const newestId = allEntries[0]?.id;
  const isLiveKnown = live?.dir === dir && live.head === newestId;
  const liveStats = {
    counts: isLiveKnown ? live.counts : undefined,
    state: !isConnected ? ('offline' as const) : isLiveKnown ? live.state : ('unknown' as const),
  };
  const row: RowContext = {
    dir,
    columns,
    columnCount: Math.max(1, ...columns.values()) + 1,
    newestId,
    after,
    liveStats,
    briefs,
    now,
    identities,
    isMemoryFolder,
    onRestoreAll: (entry) => {
      navigate({ screen: 'timeline', dir, checkpointId: entry.id });
      void planRestoreOf(dir, entry.id, []);
    },
    onRewind: (entry) =>
      entry.attribution.sessionId !== undefined &&
      entry.attribution.turn !== undefined &&
      void planRewind(entry.attribution.sessionId, entry.attribution.turn),
  };
  return { items, row };
}

/** Where a key moves the cursor among `count` entries (Home, End, arrows, j/k, a page), or undefined for other keys. */
function nextEntryIndex(key: string, page: number, selectedIndex: number, count: number): number | undefined {
  const steps: Readonly<Record<string, number>> = {
    ArrowDown: 1,
    ArrowUp: -1,
    j: 1,
    k: -1,
    PageDown: page,
    PageUp: -page,
  };
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  if (steps[key] === undefined) return undefined;
  return Math.max(0, Math.min(count - 1, selectedIndex === -1 ? 0 : selectedIndex + (steps[key] ?? 0)));
}

/** The list's keys (step through the checkpoints, Enter to the changed files) and clicks (open, Alt+click compares). */
function useTimelineNavigation({ dir, entries, selectedId }: TimelineListProps, items: readonly TimelineItem[]) {
  const navigate = useAppStore((state) => state.navigate);
  const compareWith = useAppStore((state) => state.compareWith);
  const selectedIndex = selectedId === undefined ? -1 : entries.findIndex((entry) => entry.id === selectedId);

  function open(index: number, replace: boolean): void {
    const entry = entries[index];
    if (entry !== undefined) navigate({ screen: 'timeline', dir, checkpointId: entry.id }, { replace });
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    const page = Math.max(1, Math.floor(event.currentTarget.clientHeight / entryHeight) - 1);
    if (event.key === 'Enter') {
      event.preventDefault();
      document.querySelector<HTMLElement>('[data-testid="changed-files"]')?.focus();
      return;
    }
    const next = nextEntryIndex(event.key, page, selectedIndex, entries.length);
    if (next === undefined || entries.length === 0) return;
    event.preventDefault();
    open(next, true);
  }

  function onClick(event: MouseEvent<HTMLDivElement>): void {
    const row = event.target instanceof Element ? event.target.closest('[data-index]') : null;
    const item = items[row === null ? Number.NaN : Number(row.getAttribute('data-index'))];
    if (item?.kind !== 'entry') return;
    const { entry } = item;
    if (event.altKey && selectedId !== undefined && entry.id !== selectedId) {
      const selectedTime = entries[selectedIndex]?.time ?? '';
      void compareWith({ kind: 'checkpoint', id: entry.id, isOlder: entry.time < selectedTime });
      return;
    }
    open(item.position, false);
  }

  return { onKeyDown, onClick };
}

/**
 * A row's own attributes. The list is a grid, not a listbox: a checkpoint's row holds buttons
 * (restore, rewind), which an option may not. A checkpoint is a selectable row (with its ids for
 * tests and lanes); a heading is a row that is never selected.
 */
function itemRowProps(
  item: TimelineItem | undefined,
  index: number,
  idPrefix: string,
  selectedId: string | undefined,
): ElementProps {
  if (item?.kind !== 'entry') return { role: 'row', 'data-heading': item?.kind };
  const actor = actorOfEntry(item.entry);
  return {
    id: `${idPrefix}-${index}`,
    role: 'row',
    'aria-selected': item.entry.id === selectedId,
    'data-testid': 'timeline-entry',
    'data-checkpoint-id': item.entry.id,
    'data-session-id': item.entry.attribution.sessionId ?? '',
    'data-actor': actorKey(actor),
    'data-kind': item.entry.kind,
  };
}

/** One item of the list: a day's heading, a turn's heading, or a checkpoint with its lane, stats and actions. */
function TimelineItemRow({ item, row }: { readonly item: TimelineItem | undefined; readonly row: RowContext }) {
  if (item === undefined) return null;
  if (item.kind === 'day') return <TimelineDayHeading label={item.label} />;
  const { entry } = item;
  const actor = numberedActor(actorOfEntry(entry), row.identities);
  const { sessionId, turn } = entry.attribution;
  const brief = sessionId === undefined || turn === undefined ? undefined : row.briefs.get(turnKey(sessionId, turn));
  const title = rowTitle(entry, brief, row.dir);
  const held = heldState(entry);
  if (item.kind === 'turn')
    return (
      <TimelineTurnHeading
        actor={actor}
        laneClass={actorColourClass(actor, row.identities)}
        title={title.text}
        count={item.count}
      />
    );
  return (
    <TimelineRow
      entry={entry}
      actor={actor}
      laneClass={actorColourClass(actor, row.identities)}
      lanes={{ column: row.columns.get(actorKey(actor)) ?? 0, columns: row.columnCount }}
      title={title}
      reason={reasonChip(entry)}
      stats={rowStats(entry, brief, row.dir, statsAfter(entry, entry.id === row.newestId, row.after, row.liveStats))}
      isInTurn={item.isInTurn}
      now={row.now}
      held={row.isMemoryFolder || held?.when === 'after' ? held : undefined}
      actions={
        <CheckpointRowActions
          entry={entry}
          onRestoreAll={() => row.onRestoreAll(entry)}
          onRewind={() => row.onRewind(entry)}
        />
      }
    />
  );
}

/**
 * The checkpoints of the open directory, newest first, under a heading per day and grouped by
 * turn, virtualized: arrows and Home/End step through them, Enter moves to the changed files, a
 * click opens one, Alt+click compares with it.
 */
export function TimelineList(props: TimelineListProps) {
  const { entries, selectedId, isLoading } = props;
  const idPrefix = useId();
  const { items, row } = useTimelineItems(props);
  const { onKeyDown, onClick } = useTimelineNavigation(props, items);
  const selectedItem =
    selectedId === undefined ? -1 : items.findIndex((item) => item.kind === 'entry' && item.entry.id === selectedId);

  return (
    <VirtualList
      className="timeline-list"
      count={items.length}
      rowHeight={entryHeight}
      rowHeightOf={(index) => heightOf(items[index])}
      scrollToIndex={selectedItem === -1 ? undefined : selectedItem}
      getRowKey={(index) => items[index]?.key ?? String(index)}
      listProps={{
        role: 'grid',
        'aria-label': 'Checkpoints, newest first',
        tabIndex: 0,
        'aria-activedescendant': selectedItem === -1 ? undefined : `${idPrefix}-${selectedItem}`,
        onKeyDown,
        onClick,
        'data-testid': 'timeline-list',
        'data-main-list': '',
        'data-count': entries.length,
        'data-state': isLoading ? 'loading' : 'ready',
      }}
      rowProps={(index) => itemRowProps(items[index], index, idPrefix, selectedId)}
      renderRow={(index) => <TimelineItemRow item={items[index]} row={row} />}
    />
  );
}
