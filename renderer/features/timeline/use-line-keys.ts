import { useMemo, useState, type KeyboardEvent } from 'react';
import { describeCursor, moveCursor, spanPick, toggleAtCursor } from '../../model/line-cursor';
import type { LineSelection } from '../../model/line-selection';
import type { StackedRow } from '../../model/stacked-rows';

/** What the keyboard needs from the stacked diff. */
export interface LineKeysOptions {
  readonly rows: readonly StackedRow[];
  readonly lineSelection: LineSelection | undefined;
  readonly canPickLines: boolean;
  readonly onLineSelectionChange: (selection: LineSelection | undefined) => void;
  readonly onRestoreLines: () => void;
  /** The first row in view: where the cursor starts. */
  readonly firstInView: () => number;
  /** Brings row `index` into view. */
  readonly reveal: (index: number) => void;
}

/** What the keyboard gives the stacked diff: the cursor's row, what to announce, and the key handler of the scrolling region. */
export interface LineKeys {
  readonly cursor: number | undefined;
  readonly announcement: string;
  readonly onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  /** Puts the cursor on row `index` (a press of the pointer there), and the pick's anchor with it. */
  readonly placeCursor: (index: number) => void;
}

const idOf = (row: StackedRow | undefined): string | undefined =>
  row?.kind === 'line' ? `${row.path}\0${row.key}` : undefined;

/**
 * Lines picked from the keyboard, in the diff region: ↑ ↓ move a cursor line by line, Alt+↑ ↓
 * change by change; Shift extends the pick from where the moves started; Space picks or unpicks
 * the change under the cursor; Enter restores the pick (or the change under the cursor), through
 * the same plan and confirmation as a drag; Esc clears the pick. The cursor is kept by line
 * identity, so rows loading above it do not move it.
 */
export function useLineKeys(options: LineKeysOptions): LineKeys {
  const { rows, lineSelection, canPickLines, onLineSelectionChange, onRestoreLines } = options;
  const [cursorId, setCursorId] = useState<string | undefined>(undefined);
  const [anchorId, setAnchorId] = useState<string | undefined>(undefined);
  const indexes = useMemo(() => {
    const byId = new Map<string, number>();
    rows.forEach((row, index) => {
      const id = idOf(row);
      if (id !== undefined) byId.set(id, index);
    });
    return byId;
  }, [rows]);
  const cursor = cursorId === undefined ? undefined : indexes.get(cursorId);
  const picked = lineSelection?.keys.size ?? 0;

  function move(event: KeyboardEvent<HTMLElement>, direction: 1 | -1): void {
    const next = moveCursor(rows, cursor, direction, event.altKey ? 'change' : 'line', options.firstInView());
    if (next === undefined) return;
    const nextId = idOf(rows[next]);
    setCursorId(nextId);
    options.reveal(next);
    if (!event.shiftKey) {
      setAnchorId(nextId);
      return;
    }
    const anchor = (anchorId === undefined ? undefined : indexes.get(anchorId)) ?? cursor ?? next;
    if (anchorId === undefined || indexes.get(anchorId) === undefined) setAnchorId(idOf(rows[anchor]));
    onLineSelectionChange(spanPick(rows, anchor, next));
  }

  function onKeyDown(event: KeyboardEvent<HTMLElement>): void {
    // Keys on a button inside the region (a file's "Restore file…") are that button's.
    if (!canPickLines || event.target !== event.currentTarget || event.ctrlKey || event.metaKey) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      move(event, event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === ' ' && cursor !== undefined) {
      event.preventDefault();
      onLineSelectionChange(toggleAtCursor(lineSelection, rows, cursor));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (picked === 0 && cursor !== undefined) {
        const pick = toggleAtCursor(undefined, rows, cursor);
        if (pick === undefined) return;
        onLineSelectionChange(pick);
      } else if (picked === 0) return;
      onRestoreLines();
    } else if (event.key === 'Escape' && picked > 0) {
      event.preventDefault();
      event.stopPropagation();
      onLineSelectionChange(undefined);
    }
  }

  const where = cursor === undefined ? '' : describeCursor(rows[cursor]);
  const announcement =
    where === ''
      ? ''
      : `${where}${picked > 0 ? ` · ${picked === 1 ? '1 changed line' : `${picked} changed lines`} picked` : ''}`;
  function placeCursor(index: number): void {
    const id = idOf(rows[index]);
    if (id === undefined || rows[index]?.kind !== 'line' || rows[index].key === '') return;
    setCursorId(id);
    setAnchorId(id);
  }

  return { cursor, announcement, onKeyDown, placeCursor };
}
