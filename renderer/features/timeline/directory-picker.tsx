import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { escapeControls } from '../../../shared/text/control-characters';
import { matchesSearch, type PickerDirectory } from '../../model/directory-order';
import { baseName, formatDate, formatRelativeTime, plural } from '../../model/format';

/** The picker's inputs: the folders in order, the open one, the clock for "2 h ago", and what a choice does. */
export interface DirectoryPickerProps {
  readonly items: readonly PickerDirectory[];
  readonly current: string | undefined;
  readonly now: number;
  readonly onChoose: (dir: string) => void;
}

/** Closes the popover when a press lands outside the picker. */
function useCloseOnOutsidePress(
  rootRef: RefObject<HTMLDivElement | null>,
  isOpen: boolean,
  setOpen: (isOpen: boolean) => void,
): void {
  useEffect(() => {
    if (!isOpen) return undefined;
    const onPointerDown = (event: PointerEvent): void => {
      if (event.target instanceof Node && rootRef.current?.contains(event.target) !== true) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [isOpen, rootRef, setOpen]);
}

/** The picker's state: open or not, the search, the folders it shows and the active one, and its keys. */
function useDirectoryPicker({ items, current, onChoose }: DirectoryPickerProps) {
  const [isOpen, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const rootRef = useRef<HTMLDivElement | null>(null);
  const shown = items.filter((item) => matchesSearch(item.directory, query));
  useCloseOnOutsidePress(rootRef, isOpen, setOpen);

  function open(): void {
    setQuery('');
    setActive(
      Math.max(
        0,
        items.findIndex((item) => item.directory.dir === current),
      ),
    );
    setOpen(true);
  }

  function choose(dir: string | undefined): void {
    if (dir === undefined) return;
    setOpen(false);
    onChoose(dir);
  }

  function search(text: string): void {
    setQuery(text);
    setActive(0);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>): void {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (step !== 0) {
      event.preventDefault();
      setActive((index) => Math.max(0, Math.min(shown.length - 1, index + step)));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(shown[active]?.directory.dir);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  }

  const toggle = (): void => (isOpen ? setOpen(false) : open());
  return { isOpen, query, active, shown, rootRef, toggle, choose, search, setActive, onKeyDown };
}

/** One folder in the list: its name (marked when open or missing), checkpoint count, path and last activity. */
function DirectoryOption({
  item,
  id,
  isActive,
  isCurrent,
  now,
  onHover,
  onChoose,
}: {
  readonly item: PickerDirectory;
  readonly id: string;
  readonly isActive: boolean;
  readonly isCurrent: boolean;
  readonly now: number;
  readonly onHover: () => void;
  readonly onChoose: () => void;
}) {
  const { directory } = item;
  return (
    <div
      role="option"
      id={id}
      aria-selected={isActive}
      data-testid="timeline-dir-option"
      data-dir={directory.dir}
      data-own={item.isOwn ? 'true' : 'false'}
      className="directory-option"
      onPointerEnter={onHover}
      onClick={onChoose}
    >
      <span className="directory-name">
        {escapeControls(baseName(directory.dir))}
        {isCurrent && <span className="subtle"> · open</span>}
        {!directory.exists && (
          <span className="badge" data-kind="deleted">
            missing
          </span>
        )}
      </span>
      <span className="directory-count" data-testid="timeline-dir-count">
        {plural(directory.count, 'checkpoint')}
      </span>
      <span className="directory-path mono">{escapeControls(directory.dir)}</span>
      <time className="directory-time subtle" dateTime={directory.lastTouch} title={formatDate(directory.lastTouch)}>
        {formatRelativeTime(directory.lastTouch, now)}
      </time>
    </div>
  );
}

/**
 * The timeline's folder picker: a button naming the open folder, and a searchable list of every
 * checkpointed folder with its name, path, last activity and checkpoint count, the folders people
 * work in first (most recently active first) and Vigil's own folders last. Type to search, ↑ ↓ to
 * move, Enter to open, Esc to close.
 */
export function DirectoryPicker(props: DirectoryPickerProps) {
  const { current, now } = props;
  const { isOpen, query, active, shown, rootRef, toggle, choose, search, setActive, onKeyDown } =
    useDirectoryPicker(props);
  const listId = useId();

  return (
    <div className="directory-picker" ref={rootRef}>
      <button
        type="button"
        className="directory-picker-button"
        data-testid="timeline-dir"
        data-dir={current ?? ''}
        aria-haspopup="listbox"
        aria-expanded={isOpen}
        title={current === undefined ? 'Choose a folder' : escapeControls(current)}
        onClick={toggle}
      >
        <span className="directory-picker-name">
          {current === undefined ? 'Choose a folder' : escapeControls(baseName(current))}
        </span>
        <span aria-hidden="true">▾</span>
      </button>
      {isOpen && (
        <div className="directory-popover" role="dialog" aria-label="Folders with checkpoints">
          <input
            className="input"
            type="search"
            autoFocus
            placeholder="Search folders by name or path"
            aria-label="Search folders"
            aria-controls={listId}
            aria-activedescendant={shown[active] === undefined ? undefined : `${listId}-${active}`}
            data-testid="timeline-dir-search"
            value={query}
            onChange={(event) => search(event.target.value)}
            onKeyDown={onKeyDown}
          />
          <ul className="directory-list" role="listbox" id={listId} data-testid="timeline-dir-list">
            {shown.length === 0 && <li className="subtle directory-none">No folder matches.</li>}
            {shown.map((item, index) => (
              <li key={item.directory.dir} role="presentation">
                {item.isOwn && shown[index - 1]?.isOwn !== true && (
                  <div className="directory-section">Vigil’s own folders</div>
                )}
                <DirectoryOption
                  item={item}
                  id={`${listId}-${index}`}
                  isActive={index === active}
                  isCurrent={item.directory.dir === current}
                  now={now}
                  onHover={() => setActive(index)}
                  onChoose={() => choose(item.directory.dir)}
                />
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
