import {
  useEffect,
  useEffectEvent,
  useId,
  useRef,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import {
  dragOver,
  pressCheck,
  pressKey,
  pressRow,
  release,
  toggleGroup,
  type SelectionModifiers,
  type SelectionState,
} from '../../model/selection-model';
import { VirtualList } from './virtual-list';

/** How a row is drawn: its index and whether it is selected or under the cursor. */
export interface SelectableRow {
  readonly index: number;
  readonly key: string;
  readonly isSelected: boolean;
  readonly isCursor: boolean;
}

const edgeScrollZone = 28;

function modifiersOf(event: {
  readonly shiftKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
}): SelectionModifiers {
  return { isRange: event.shiftKey, isToggle: event.ctrlKey || event.metaKey };
}

function rowIndexAt(target: EventTarget | null): number | undefined {
  if (!(target instanceof Element)) return undefined;
  const row = target.closest('[data-index]');
  const index = row === null ? Number.NaN : Number(row.getAttribute('data-index'));
  return Number.isInteger(index) ? index : undefined;
}

/** What a selectable list shows, and what its gestures tell the caller. */
export interface SelectableListProps {
  readonly keys: readonly string[];
  readonly selection: SelectionState;
  readonly onSelectionChange: (next: SelectionState) => void;
  /** Enter on the cursor row, or a double click. */
  readonly onActivate?: (key: string) => void;
  readonly renderRow: (row: SelectableRow) => ReactNode;
  readonly rowHeight: number;
  readonly label: string;
  readonly testId?: string;
  /** Rows that stand for other rows (a folder for its files), by key. */
  readonly groups?: ReadonlyMap<string, readonly string[]> | undefined;
}

/** A drag ends wherever the pointer is let go, even outside the list, or when the window loses focus. */
function useEndDragAnywhere(isDragging: boolean, onEnd: () => void): void {
  const endDrag = useEffectEvent(onEnd);
  useEffect(() => {
    if (!isDragging) return undefined;
    const end = (): void => endDrag();
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
    window.addEventListener('blur', end);
    return () => {
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      window.removeEventListener('blur', end);
    };
  }, [isDragging]);
}

/** The list's pointer and key handlers, each turning a gesture into the next selection. */
function useSelectionGestures(
  { keys, selection, onSelectionChange, onActivate, rowHeight, groups }: SelectableListProps,
  scrollRef: RefObject<HTMLDivElement | null>,
) {
  const isDragging = selection.drag !== undefined;
  useEndDragAnywhere(isDragging, () => onSelectionChange(release(selection)));

  function onPointerDown(event: PointerEvent<HTMLDivElement>): void {
    if (event.button !== 0) return;
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest('button') != null) return;
    const index = rowIndexAt(event.target);
    if (index === undefined) return;
    // Keep the browser from starting a text selection, and take the focus by hand.
    event.preventDefault();
    event.currentTarget.focus({ preventScroll: true });
    const key = keys[index] ?? '';
    const members = groups?.get(key);
    if (target?.closest('[data-role="check"]') != null)
      onSelectionChange(
        members === undefined ? pressCheck(selection, keys, index) : toggleGroup(selection, key, members),
      );
    else onSelectionChange(pressRow(selection, keys, index, modifiersOf(event)));
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>): void {
    if (!isDragging) return;
    const element = event.currentTarget;
    const bounds = element.getBoundingClientRect();
    if (event.clientY < bounds.top + edgeScrollZone) element.scrollTop -= rowHeight / 2;
    else if (event.clientY > bounds.bottom - edgeScrollZone) element.scrollTop += rowHeight / 2;
    const index = rowIndexAt(event.target);
    if (index !== undefined && keys[index] !== selection.cursorKey) onSelectionChange(dragOver(selection, keys, index));
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    if (event.key === 'Enter') {
      if (selection.cursorKey !== undefined && onActivate !== undefined) {
        event.preventDefault();
        onActivate(selection.cursorKey);
      }
      return;
    }
    const members = selection.cursorKey === undefined ? undefined : groups?.get(selection.cursorKey);
    if (event.key === ' ' && members !== undefined && selection.cursorKey !== undefined) {
      event.preventDefault();
      onSelectionChange(toggleGroup(selection, selection.cursorKey, members));
      return;
    }
    const pageSize = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? rowHeight * 10) / rowHeight) - 1);
    const next = pressKey(selection, keys, event.key, modifiersOf(event), pageSize);
    if (next === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    onSelectionChange(next);
  }

  function onDoubleClick(event: MouseEvent<HTMLDivElement>): void {
    const index = rowIndexAt(event.target);
    const key = index === undefined ? undefined : keys[index];
    if (key !== undefined) onActivate?.(key);
  }

  return { isDragging, onPointerDown, onPointerMove, onKeyDown, onDoubleClick };
}

/**
 * A multi-select list box with checkboxes: a click moves the cursor (the caller shows that row);
 * the checkbox (an element with `data-role="check"` in the row), ctrl- or cmd-click and space
 * toggle; a press dragged across rows selects them; shift-click and shift+arrows select ranges;
 * ctrl+A, Home/End, Escape; Enter activates the cursor row. A row of `groups` (a folder) toggles
 * all its members. Buttons in a row keep their own clicks. The selection lives with the caller;
 * this component only turns gestures into the next selection through the pure selection model.
 */
export function SelectableList(props: SelectableListProps) {
  const { keys, selection, renderRow, rowHeight, label, testId } = props;
  const idPrefix = useId();
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const { isDragging, onPointerDown, onPointerMove, onKeyDown, onDoubleClick } = useSelectionGestures(props, scrollRef);
  const cursorIndex = selection.cursorKey === undefined ? -1 : keys.indexOf(selection.cursorKey);

  return (
    <VirtualList
      className="selectable-list"
      count={keys.length}
      rowHeight={rowHeight}
      scrollRef={scrollRef}
      scrollToIndex={cursorIndex === -1 ? undefined : cursorIndex}
      getRowKey={(index) => keys[index] ?? String(index)}
      listProps={{
        // A grid, not a listbox: its rows hold buttons (restore, history), which an option may not.
        role: 'grid',
        'aria-label': label,
        'aria-multiselectable': true,
        'aria-activedescendant': cursorIndex === -1 ? undefined : `${idPrefix}-${cursorIndex}`,
        tabIndex: 0,
        onPointerDown,
        onPointerMove,
        onKeyDown,
        onDoubleClick,
        'data-testid': testId,
        'data-selected-count': selection.selected.size,
        'data-state': isDragging ? 'dragging' : 'idle',
      }}
      rowProps={(index) => {
        const key = keys[index] ?? '';
        return {
          id: `${idPrefix}-${index}`,
          role: 'row',
          'aria-selected': selection.selected.has(key),
          'data-cursor': index === cursorIndex ? 'true' : undefined,
          'data-key': key,
        };
      }}
      renderRow={(index) => {
        const key = keys[index] ?? '';
        return renderRow({ index, key, isSelected: selection.selected.has(key), isCursor: index === cursorIndex });
      }}
    />
  );
}
