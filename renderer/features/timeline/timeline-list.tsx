import { useId, useMemo, type KeyboardEvent, type MouseEvent } from 'react';
import { CheckpointRowActions } from '../../components/checkpoint-row-actions';
import { TimelineRow } from '../../components/timeline-row';
import { useNow } from '../../components/use-now';
import { VirtualList } from '../../components/virtual-list';
import { sessionColourClass } from '../../model/session-lanes';
import { timelineColumns } from '../../model/timeline-columns';
import type { TimelineEntry } from '../../model/timeline-filter';
import { useAppStore } from '../../stores/store-context';

const rowHeight = 46;

/**
 * The checkpoints of the open directory, newest first, virtualized: arrows and Home/End step
 * through them, Enter moves to the changed files, a click opens one, Alt+click compares with it.
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
  const now = useNow(15_000);
  const columns = useMemo(() => timelineColumns(allEntries), [allEntries]);
  const columnCount = Math.max(1, ...columns.values()) + 1;
  const selectedIndex = selectedId === undefined ? -1 : entries.findIndex((entry) => entry.id === selectedId);

  function open(index: number, replace: boolean): void {
    const entry = entries[index];
    if (entry !== undefined) navigate({ screen: 'timeline', dir, checkpointId: entry.id }, { replace });
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    const page = Math.max(1, Math.floor(event.currentTarget.clientHeight / rowHeight) - 1);
    const steps: Readonly<Record<string, number>> = { ArrowDown: 1, ArrowUp: -1, j: 1, k: -1, PageDown: page, PageUp: -page };
    if (event.key === 'Enter') {
      event.preventDefault();
      document.querySelector<HTMLElement>('[data-testid="changed-files"]')?.focus();
      return;
    }
    let next: number | undefined;
    if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = entries.length - 1;
    else if (steps[event.key] !== undefined) next = Math.max(0, Math.min(entries.length - 1, selectedIndex === -1 ? 0 : selectedIndex + (steps[event.key] ?? 0)));
    if (next === undefined || entries.length === 0) return;
    event.preventDefault();
    open(next, true);
  }

  function onClick(event: MouseEvent<HTMLDivElement>): void {
    const row = event.target instanceof Element ? event.target.closest('[data-index]') : null;
    const index = row === null ? Number.NaN : Number(row.getAttribute('data-index'));
    const entry = entries[index];
    if (entry === undefined) return;
    if (event.altKey && selectedId !== undefined && entry.id !== selectedId) {
      const selectedTime = entries[selectedIndex]?.time ?? '';
      void compareWith({ kind: 'checkpoint', id: entry.id, isOlder: entry.time < selectedTime });
      return;
    }
    open(index, false);
  }

  return (
    <VirtualList
      className="timeline-list"
      count={entries.length}
      rowHeight={rowHeight}
      scrollToIndex={selectedIndex === -1 ? undefined : selectedIndex}
      getRowKey={(index) => entries[index]?.id ?? String(index)}
      listProps={{
        role: 'listbox',
        'aria-label': 'Checkpoints, newest first',
        tabIndex: 0,
        'aria-activedescendant': selectedIndex === -1 ? undefined : `${idPrefix}-${selectedIndex}`,
        onKeyDown,
        onClick,
        'data-testid': 'timeline-list',
        'data-count': entries.length,
        'data-state': isLoading ? 'loading' : 'ready',
      }}
      rowProps={(index) => {
        const entry = entries[index];
        return {
          id: `${idPrefix}-${index}`,
          role: 'option',
          'aria-selected': entry?.id === selectedId,
          'data-testid': 'timeline-entry',
          'data-checkpoint-id': entry?.id,
          'data-session-id': entry?.attribution.sessionId ?? '',
          'data-kind': entry?.kind,
        };
      }}
      renderRow={(index) => {
        const entry = entries[index];
        if (entry === undefined) return null;
        const sessionId = entry.attribution.sessionId;
        return (
          <TimelineRow
            entry={entry}
            laneClass={sessionColourClass(sessionId)}
            column={columns.get(sessionId ?? '') ?? 0}
            columns={columnCount}
            now={now}
            actions={
              <CheckpointRowActions
                entry={entry}
                onRestoreAll={() => {
                  navigate({ screen: 'timeline', dir, checkpointId: entry.id });
                  void planRestoreOf(dir, entry.id, []);
                }}
                onRewind={() => entry.attribution.sessionId !== undefined && entry.attribution.turn !== undefined && void planRewind(entry.attribution.sessionId, entry.attribution.turn, 'both')}
              />
            }
          />
        );
      }}
    />
  );
}
