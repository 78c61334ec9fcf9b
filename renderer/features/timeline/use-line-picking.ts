import { useEffect, useEffectEvent, useRef, type PointerEvent, type RefObject } from 'react';
import { dragLine, pressLine, releaseLine, type LineSelection } from '../../model/line-selection';
import type { StackedRow } from '../../model/stacked-rows';

/** The index (`data-index`) of the stacked row holding `target`, if any. */
export function rowIndexAt(target: EventTarget | null): number | undefined {
  if (!(target instanceof Element)) return undefined;
  const row = target.closest('[data-index]');
  const index = row === null ? Number.NaN : Number(row.getAttribute('data-index'));
  return Number.isInteger(index) ? index : undefined;
}

function rowIndexAtPoint(region: HTMLElement, point: { readonly x: number; readonly y: number }): number | undefined {
  const element = region.ownerDocument.elementFromPoint(point.x, point.y);
  return element !== null && region.contains(element) ? rowIndexAt(element) : undefined;
}

/** What pointer picking needs from the stacked diff. */
export interface LinePickingOptions {
  readonly rows: readonly StackedRow[];
  readonly scrollRef: RefObject<HTMLDivElement | null>;
  readonly lineSelection: LineSelection | undefined;
  readonly canPickLines: boolean;
  readonly onLineSelectionChange: (selection: LineSelection | undefined) => void;
}

/**
 * Picking lines with the pointer: a press starts (or, with Shift, extends) a pick, a drag grows
 * it, a release anywhere ends it. The pick follows the row under the pointer, wherever it is
 * drawn: after every render during a drag, the row at the pointer's last position is looked up
 * again, because the rows may be drawn anew under a pointer that holds still (a live comparison
 * recomputes and its file's lines are gone for a moment, the list scrolls), and no pointer event
 * says so.
 */
export function useLinePicking({
  rows,
  scrollRef,
  lineSelection,
  canPickLines,
  onLineSelectionChange,
}: LinePickingOptions) {
  const isDragging = lineSelection?.dragFrom !== undefined;
  const pointer = useRef<{ x: number; y: number } | undefined>(undefined);
  const endDrag = useEffectEvent(() => onLineSelectionChange(releaseLine(lineSelection)));
  useEffect(() => {
    if (!isDragging) return undefined;
    const end = (): void => endDrag();
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
    return () => {
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
    };
  }, [isDragging]);

  function followPointer(): void {
    const region = scrollRef.current;
    if (!isDragging || region === null || pointer.current === undefined) return;
    const index = rowIndexAtPoint(region, pointer.current);
    if (index === undefined) return;
    const next = dragLine(lineSelection, rows, index);
    if (next !== lineSelection) onLineSelectionChange(next);
  }
  // After every render (no dependencies on purpose): the rows under a still pointer may have changed.
  useEffect(followPointer);

  function onPointerDown(event: PointerEvent<HTMLDivElement>): void {
    if (!canPickLines || event.button !== 0) return;
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest('button') != null) return;
    const index = rowIndexAt(event.target);
    if (index === undefined || rows[index]?.kind !== 'line') return;
    // A drag picks lines instead of selecting text.
    event.preventDefault();
    pointer.current = { x: event.clientX, y: event.clientY };
    onLineSelectionChange(pressLine(lineSelection, rows, index, event.shiftKey));
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>): void {
    if (!isDragging) return;
    const element = event.currentTarget;
    const bounds = element.getBoundingClientRect();
    if (event.clientY < bounds.top + 24) element.scrollTop -= 9;
    else if (event.clientY > bounds.bottom - 24) element.scrollTop += 9;
    pointer.current = { x: event.clientX, y: event.clientY };
    followPointer();
  }

  return { isDragging, onPointerDown, onPointerMove };
}
