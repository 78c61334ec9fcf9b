import { useRef, type KeyboardEvent, type PointerEvent } from 'react';

/** Percent moved by one arrow key press, and with Shift (or Page Up / Page Down). */
const smallStep = 2;
const bigStep = 10;

/**
 * The handle between two side-by-side panes that sizes the one after it (its share of the parent's
 * width, in percent): dragged with the pointer, or focused and moved with ← → (Shift or Page Up /
 * Page Down: further), Home / End for the widest and the narrowest. It is an ARIA window splitter
 * (a focusable separator with its value), so assistive technology hears the size as it changes.
 */
export function PaneSeparator({
  value,
  min,
  max,
  label,
  onChange,
  testId,
}: {
  readonly value: number;
  readonly min: number;
  readonly max: number;
  readonly label: string;
  readonly onChange: (percent: number) => void;
  readonly testId?: string;
}) {
  const dragging = useRef(false);

  function percentAt(element: HTMLElement, clientX: number): number | undefined {
    const bounds = element.parentElement?.getBoundingClientRect();
    if (bounds === undefined || bounds.width <= 0) return undefined;
    return ((bounds.right - clientX) / bounds.width) * 100;
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>): void {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
    dragging.current = true;
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>): void {
    if (!dragging.current) return;
    const percent = percentAt(event.currentTarget, event.clientX);
    if (percent !== undefined) onChange(percent);
  }

  function onPointerEnd(event: PointerEvent<HTMLDivElement>): void {
    dragging.current = false;
    if (event.currentTarget.hasPointerCapture(event.pointerId))
      event.currentTarget.releasePointerCapture(event.pointerId);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    const step = event.shiftKey ? bigStep : smallStep;
    const next: Readonly<Record<string, number>> = {
      ArrowLeft: value + step,
      ArrowRight: value - step,
      PageUp: value + bigStep,
      PageDown: value - bigStep,
      Home: max,
      End: min,
    };
    const target = next[event.key];
    if (target === undefined) return;
    event.preventDefault();
    onChange(target);
  }

  return (
    <div
      className="pane-separator"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={value}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuetext={`${value}% of the width`}
      tabIndex={0}
      data-testid={testId}
      title={`${label}: drag, or focus and use ← →`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onKeyDown={onKeyDown}
    />
  );
}
