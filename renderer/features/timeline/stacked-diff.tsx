import { useVirtualizer, type VirtualItem, type Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useEffectEvent, useMemo, useRef, type PointerEvent, type RefObject } from 'react';
import { toggleHunk, type LineSelection } from '../../model/line-selection';
import {
  headerIndexes,
  stackedRowHeights,
  stackedRows,
  type SkippedFile,
  type StackedDiffState,
  type StackedFile,
  type StackedRow,
} from '../../model/stacked-rows';
import { LinePickFooter } from './line-selection-bar';
import { StackedDiffRow, type FileHeaderActions } from './stacked-diff-row';
import { useLineKeys } from './use-line-keys';
import { rowIndexAt, useLinePicking } from './use-line-picking';

/**
 * A press in the diff region: runs `handlers` (stop following the focus, start a pick), and on a
 * line puts the keyboard's cursor there and the focus on the region, so the keys carry on from
 * where the pointer was.
 */
function pressHandler(
  canPickLines: boolean,
  handlers: ReadonlyArray<(event: PointerEvent<HTMLDivElement>) => void>,
  placeCursor: (index: number) => void,
): (event: PointerEvent<HTMLDivElement>) => void {
  return (event) => {
    for (const handler of handlers) handler(event);
    const index = rowIndexAt(event.target);
    if (!canPickLines || index === undefined || event.button !== 0) return;
    placeCursor(index);
    event.currentTarget.focus({ preventScroll: true });
  };
}

/** What a stacked diff shows, and what its picks, scrolling and buttons tell the caller. */
export interface StackedDiffProps {
  readonly files: readonly StackedFile[];
  readonly diffs: ReadonlyMap<string, StackedDiffState>;
  readonly skipped?: readonly SkippedFile[];
  /** Scrolled to whenever it changes (a click in the file tree). */
  readonly focusPath: string | undefined;
  readonly lineSelection: LineSelection | undefined;
  /** Lines can be picked (with the pointer, or the keyboard in the diff region). */
  readonly canPickLines: boolean;
  /** The checkpoint picked lines come from (its short id), when the diff is not against the live file. */
  readonly lineSource?: string | undefined;
  readonly onLineSelectionChange: (selection: LineSelection | undefined) => void;
  readonly onVisibleFiles: (paths: readonly string[]) => void;
  readonly onRestoreLines: () => void;
  readonly actions: FileHeaderActions;
  readonly testId?: string;
}

type StackedVirtualizer = Virtualizer<HTMLDivElement, HTMLDivElement>;

/** The virtualizer over the rows, measured again whenever the rows change. */
function useStackedVirtualizer(rows: readonly StackedRow[], scrollRef: RefObject<HTMLDivElement | null>) {
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual is used as documented, without the React Compiler
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLDivElement>({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => stackedRowHeights[rows[index]?.kind ?? 'line'],
    getItemKey: (index) => {
      const row = rows[index];
      return row === undefined
        ? String(index)
        : `${row.path}\0${row.kind}\0${row.kind === 'line' ? row.key : row.kind === 'hunk' ? row.hunk : index}`;
    },
    overscan: 12,
    initialRect: { width: 800, height: 600 },
  });

  useEffect(() => {
    virtualizer.measure();
  }, [rows, virtualizer]);
  return virtualizer;
}

/**
 * A new focus scrolls to its file, and again while the rows above it load in (their heights
 * change), until the user scrolls by hand: rows loading later must not pull the view back.
 * Returns what stops following it.
 */
function useFollowFocus(
  focusPath: string | undefined,
  headers: ReadonlyMap<string, number>,
  virtualizer: StackedVirtualizer,
): () => void {
  const pendingFocus = useRef<string | undefined>(undefined);
  useEffect(() => {
    pendingFocus.current = focusPath;
  }, [focusPath]);
  useEffect(() => {
    const index = pendingFocus.current === undefined ? undefined : headers.get(pendingFocus.current);
    if (index !== undefined) virtualizer.scrollToIndex(index, { align: 'start' });
  }, [focusPath, headers, virtualizer]);
  return (): void => {
    pendingFocus.current = undefined;
  };
}

/**
 * Tells the caller which files have rows in view whenever that set changes, or one of them is to be
 * loaded (again, after a refresh): their hunks load then.
 */
function useReportVisibleFiles(
  items: readonly VirtualItem[],
  rows: readonly StackedRow[],
  headers: ReadonlyMap<string, number>,
  diffs: ReadonlyMap<string, StackedDiffState>,
  onVisibleFiles: (paths: readonly string[]) => void,
): void {
  const visible = [
    ...new Set(
      items
        .map((item) => rows[item.index]?.path)
        .filter((path): path is string => path !== undefined && headers.has(path)),
    ),
  ];
  const toLoad = visible.filter((path) => (diffs.get(path)?.load.kind ?? 'idle') === 'idle');
  const visibleKey = `${visible.join('\0')}\u0001${toLoad.join('\0')}`;
  const reportVisible = useEffectEvent(() => onVisibleFiles(visible));
  useEffect(() => {
    if (visibleKey !== '\u0001') reportVisible();
  }, [visibleKey]);
}

/**
 * Every changed file of a comparison one under another, like a pull request, virtualized (only
 * the rows in view are drawn, so hundreds of files stay smooth): each file's header with its own
 * actions, its lines, a notice for content without lines, and the paths the checkpoint did not
 * store. Files' hunks are asked for as they come into view. With `canPickLines`, a drag across
 * lines (or "pick this hunk") picks changed lines of one file for "Restore these lines".
 */
export function StackedDiff(props: StackedDiffProps) {
  const { files, diffs, skipped = [], focusPath, lineSelection, canPickLines, onLineSelectionChange } = props;
  const { onVisibleFiles, onRestoreLines, actions, testId = 'stacked-diff' } = props;
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const rows = useMemo(() => stackedRows(files, diffs, skipped), [files, diffs, skipped]);
  const headers = useMemo(() => headerIndexes(rows), [rows]);
  const virtualizer = useStackedVirtualizer(rows, scrollRef);
  const stopFollowingFocus = useFollowFocus(focusPath, headers, virtualizer);
  const items = virtualizer.getVirtualItems();
  useReportVisibleFiles(items, rows, headers, diffs, onVisibleFiles);
  const { isDragging, onPointerDown, onPointerMove } = useLinePicking({ ...props, rows, scrollRef });
  const keys = useLineKeys({
    rows,
    lineSelection,
    canPickLines,
    onLineSelectionChange,
    onRestoreLines,
    firstInView: () => items.find((item) => rows[item.index]?.kind === 'line')?.index ?? 0,
    reveal: (index) => virtualizer.scrollToIndex(index, { align: 'auto' }),
  });

  const picked = lineSelection?.keys.size ?? 0;
  const rowActions: FileHeaderActions = {
    ...actions,
    onToggleHunk: (path, hunk) => onLineSelectionChange(toggleHunk(lineSelection, rows, path, hunk)),
  };

  return (
    <div className="stacked-diff" data-testid={testId} data-files={files.length} data-picked={picked}>
      <div
        ref={scrollRef}
        className="stacked-diff-scroll"
        onWheel={stopFollowingFocus}
        onKeyDown={(event) => {
          stopFollowingFocus();
          keys.onKeyDown(event);
        }}
        onPointerDown={pressHandler(canPickLines, [stopFollowingFocus, onPointerDown], keys.placeCursor)}
        onPointerMove={onPointerMove}
        data-state={isDragging ? 'dragging' : 'idle'}
        // A region, not a table: its rows hold file headers with buttons and notices, which a table's rows may not.
        role="region"
        aria-label="Changes, file by file"
        aria-describedby={canPickLines ? `${testId}-keys` : undefined}
        tabIndex={0}
      >
        <div className="virtual-list-spacer" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rows[item.index];
            if (row === undefined) return null;
            const isPicked = row.kind === 'line' && lineSelection?.path === row.path && lineSelection.keys.has(row.key);
            return (
              <div
                key={item.key}
                className="virtual-list-row stacked-row"
                data-index={item.index}
                data-kind={row.kind}
                data-cursor={item.index === keys.cursor ? 'true' : undefined}
                style={{ height: item.size, transform: `translateY(${item.start}px)` }}
              >
                <StackedDiffRow row={row} isPicked={isPicked} canPickLines={canPickLines} actions={rowActions} />
              </div>
            );
          })}
        </div>
      </div>
      <LinePickFooter
        lineSelection={canPickLines ? lineSelection : undefined}
        isDragging={isDragging}
        onClear={() => onLineSelectionChange(undefined)}
        onRestoreLines={onRestoreLines}
        source={props.lineSource}
        helpId={canPickLines ? `${testId}-keys` : undefined}
        announcement={keys.announcement}
      />
    </div>
  );
}
