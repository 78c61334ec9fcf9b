import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type HTMLAttributes, type ReactNode, type Ref } from 'react';

/** Extra attributes for a row or the list, `data-*` included. */
export type ElementProps = HTMLAttributes<HTMLDivElement> &
  Readonly<Record<`data-${string}`, string | number | undefined>>;

/** What a virtual list needs: how many rows, how tall, how to key and draw each. */
export interface VirtualListProps {
  readonly count: number;
  /** Every row has this height in pixels (dense lists of fixed rows scroll smoothest). */
  readonly rowHeight: number;
  /** Rows of other heights (headings among rows): each row's height; default `rowHeight` for all. */
  readonly rowHeightOf?: (index: number) => number;
  readonly getRowKey: (index: number) => string;
  readonly renderRow: (index: number) => ReactNode;
  /** Attributes of a row's own element (role, aria-selected, id, data-state). */
  readonly rowProps?: (index: number) => ElementProps;
  /** Attributes of the scrolling element (role, aria-*, tabIndex, key and pointer handlers). */
  readonly listProps?: ElementProps;
  /** When this changes, the row scrolls into view (the keyboard cursor). */
  readonly scrollToIndex?: number | undefined;
  readonly overscan?: number;
  readonly className?: string;
  /** The scrolling element, for callers that scroll it themselves (drag auto-scroll). */
  readonly scrollRef?: Ref<HTMLDivElement>;
}

/**
 * A list that renders only the rows in view (plus a few), so 10,000 rows cost what 30 do. Rows are
 * absolutely positioned in a spacer as tall as the whole list; the scrolling element is the
 * list itself, so focus, keys and aria live there.
 */
export function VirtualList({
  count,
  rowHeight,
  rowHeightOf,
  getRowKey,
  renderRow,
  rowProps,
  listProps,
  scrollToIndex,
  overscan = 8,
  className,
  scrollRef,
}: VirtualListProps) {
  const elementRef = useRef<HTMLDivElement | null>(null);
  // The virtualizer's getters change on every scroll by design; nothing here is memoized by the compiler.
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual is used as documented, without the React Compiler
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLDivElement>({
    count,
    getScrollElement: () => elementRef.current,
    estimateSize: (index) => rowHeightOf?.(index) ?? rowHeight,
    getItemKey: getRowKey,
    overscan,
    initialRect: { width: 800, height: rowHeight * 20 },
  });

  useEffect(() => {
    if (scrollToIndex === undefined || scrollToIndex < 0 || scrollToIndex >= count) return;
    virtualizer.scrollToIndex(scrollToIndex, { align: 'auto' });
  }, [scrollToIndex, count, virtualizer]);

  const setRef = (node: HTMLDivElement | null): void => {
    elementRef.current = node;
    if (typeof scrollRef === 'function') scrollRef(node);
    else if (scrollRef !== undefined && scrollRef !== null) scrollRef.current = node;
  };

  return (
    <div ref={setRef} className={`virtual-list ${className ?? ''}`} {...listProps}>
      <div className="virtual-list-spacer" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            className="virtual-list-row"
            data-index={item.index}
            style={{ height: item.size, transform: `translateY(${item.start}px)` }}
            {...rowProps?.(item.index)}
          >
            {renderRow(item.index)}
          </div>
        ))}
      </div>
    </div>
  );
}
