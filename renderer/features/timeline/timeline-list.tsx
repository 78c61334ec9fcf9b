import { useId, useMemo, type KeyboardEvent, type MouseEvent } from 'react';
import { actorKey } from '../../../shared/contract/actor-model';
import { CheckpointRowActions } from '../../components/checkpoint-row-actions';
import { TimelineDayHeading, TimelineRow, TimelineTurnHeading } from '../../components/timeline-row';
import { useNow } from '../../components/use-now';
import { VirtualList } from '../../components/virtual-list';
import { actorColourClass, actorOfEntry } from '../../model/actor-view';
import { changesAfter, reasonChip, rowTitle, statsAfter } from '../../model/row-words';
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

/**
 * The checkpoints of the open directory, newest first, under a heading per day and grouped by
 * turn, virtualized: arrows and Home/End step through them, Enter moves to the changed files, a
 * click opens one, Alt+click compares with it.
 */
export function TimelineList({
  dir,
  entries,
  allEntries,
  selectedId,
  isLoading,
}: {
  readonly dir: string;
  readonly entries: readonly TimelineEntry[];
  readonly allEntries: readonly TimelineEntry[];
  readonly selectedId: string | undefined;
  readonly isLoading: boolean;
}) {
  const idPrefix = useId();
  const navigate = useAppStore((state) => state.navigate);
  const compareWith = useAppStore((state) => state.compareWith);
  const planRestoreOf = useAppStore((state) => state.planRestoreOf);
  const planRewind = useAppStore((state) => state.planRewind);
  const briefs = useAppStore((state) => state.turnBriefs);
  const live = useAppStore((state) => state.liveChanges);
  const isConnected = useAppStore((state) => state.connection.kind === 'connected');
  const now = useNow(15_000);
  const columns = useMemo(() => timelineColumns(allEntries), [allEntries]);
  const after = useMemo(() => changesAfter(allEntries), [allEntries]);
  const dayOf = Math.floor(now / 3_600_000);
  // Headings follow the day; "Today" turns into "Yesterday" within the hour after midnight.
  const items = useMemo(() => timelineItems(entries, dayOf * 3_600_000), [entries, dayOf]);
  const columnCount = Math.max(1, ...columns.values()) + 1;
  const newestId = allEntries[0]?.id;
  const isLiveKnown = live?.dir === dir && live.head === newestId;
  const liveStats = {
    counts: isLiveKnown ? live.counts : undefined,
    state: !isConnected ? ('offline' as const) : isLiveKnown ? live.state : ('unknown' as const),
  };
  const selectedIndex = selectedId === undefined ? -1 : entries.findIndex((entry) => entry.id === selectedId);
  const selectedItem =
    selectedId === undefined ? -1 : items.findIndex((item) => item.kind === 'entry' && item.entry.id === selectedId);

  function open(index: number, replace: boolean): void {
    const entry = entries[index];
    if (entry !== undefined) navigate({ screen: 'timeline', dir, checkpointId: entry.id }, { replace });
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    const page = Math.max(1, Math.floor(event.currentTarget.clientHeight / entryHeight) - 1);
    const steps: Readonly<Record<string, number>> = {
      ArrowDown: 1,
      ArrowUp: -1,
      j: 1,
      k: -1,
      PageDown: page,
      PageUp: -page,
    };
    if (event.key === 'Enter') {
      event.preventDefault();
      document.querySelector<HTMLElement>('[data-testid="changed-files"]')?.focus();
      return;
    }
    let next: number | undefined;
    if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = entries.length - 1;
    else if (steps[event.key] !== undefined)
      next = Math.max(
        0,
        Math.min(entries.length - 1, selectedIndex === -1 ? 0 : selectedIndex + (steps[event.key] ?? 0)),
      );
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

  return (
    <VirtualList
      className="timeline-list"
      count={items.length}
      rowHeight={entryHeight}
      rowHeightOf={(index) => heightOf(items[index])}
      scrollToIndex={selectedItem === -1 ? undefined : selectedItem}
      getRowKey={(index) => items[index]?.key ?? String(index)}
      listProps={{
        role: 'listbox',
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
      rowProps={(index) => {
        const item = items[index];
        if (item?.kind !== 'entry') return { role: 'presentation', 'data-heading': item?.kind };
        const actor = actorOfEntry(item.entry);
        return {
          id: `${idPrefix}-${index}`,
          role: 'option',
          'aria-selected': item.entry.id === selectedId,
          'data-testid': 'timeline-entry',
          'data-checkpoint-id': item.entry.id,
          'data-session-id': item.entry.attribution.sessionId ?? '',
          'data-actor': actorKey(actor),
          'data-kind': item.entry.kind,
        };
      }}
      renderRow={(index) => {
        const item = items[index];
        if (item === undefined) return null;
        if (item.kind === 'day') return <TimelineDayHeading label={item.label} />;
        const { entry } = item;
        const actor = actorOfEntry(entry);
        const { sessionId, turn } = entry.attribution;
        const brief = sessionId === undefined || turn === undefined ? undefined : briefs.get(turnKey(sessionId, turn));
        const title = rowTitle(entry, brief, dir);
        if (item.kind === 'turn')
          return (
            <TimelineTurnHeading
              actor={actor}
              laneClass={actorColourClass(actor)}
              title={title.text}
              count={item.count}
            />
          );
        return (
          <TimelineRow
            entry={entry}
            actor={actor}
            laneClass={actorColourClass(actor)}
            lanes={{ column: columns.get(actorKey(actor)) ?? 0, columns: columnCount }}
            title={title}
            reason={reasonChip(entry)}
            stats={statsAfter(entry, entry.id === newestId, after, liveStats)}
            isInTurn={item.isInTurn}
            now={now}
            actions={
              <CheckpointRowActions
                entry={entry}
                onRestoreAll={() => {
                  navigate({ screen: 'timeline', dir, checkpointId: entry.id });
                  void planRestoreOf(dir, entry.id, []);
                }}
                onRewind={() =>
                  entry.attribution.sessionId !== undefined &&
                  entry.attribution.turn !== undefined &&
                  void planRewind(entry.attribution.sessionId, entry.attribution.turn, 'both')
                }
              />
            }
          />
        );
      }}
    />
  );
}
