/**
 * The selection of a list of rows (changed files), as a list with checkboxes does it: a click (or
 * an arrow key) moves the cursor and selects nothing; the checkbox, ctrl/cmd-click and space toggle
 * a row; a press dragged across rows selects them; shift-click and shift+arrows select ranges;
 * ctrl+A all, Escape none. Pure functions over keys, so the selection survives the list being
 * filtered or reordered.
 */

/** Modifier keys that change what a press or a key does. */
export interface SelectionModifiers {
  /** Shift: extend a range from the anchor. */
  readonly isRange: boolean;
  /** Ctrl (Cmd on macOS): toggle one row, or move the cursor without selecting. */
  readonly isToggle: boolean;
}

/** A drag in progress: what was selected when it started and whether it adds or removes rows. */
export interface DragGesture {
  readonly base: ReadonlySet<string>;
  readonly startKey: string;
  readonly mode: 'replace' | 'add' | 'remove';
  /** A plain press that has not left its row yet: until it does, it selects nothing (it was a click). */
  readonly isPending?: boolean;
  /** Started on a checkbox: the rows change, the cursor (the file shown) stays where it was. */
  readonly keepsCursor?: boolean;
}

/** The selection: the selected keys, the anchor of ranges, the cursor, and a drag in progress. */
export interface SelectionState {
  readonly selected: ReadonlySet<string>;
  readonly anchorKey: string | undefined;
  readonly cursorKey: string | undefined;
  readonly drag: DragGesture | undefined;
}

/** Nothing selected. */
export const emptySelection: SelectionState = {
  selected: new Set(),
  anchorKey: undefined,
  cursorKey: undefined,
  drag: undefined,
};

const noModifiers: SelectionModifiers = { isRange: false, isToggle: false };

function rangeKeys(keys: readonly string[], from: number, to: number): string[] {
  const start = Math.max(0, Math.min(from, to));
  const end = Math.min(keys.length - 1, Math.max(from, to));
  return keys.slice(start, end + 1);
}

function indexOf(keys: readonly string[], key: string | undefined): number {
  return key === undefined ? -1 : keys.indexOf(key);
}

function union(base: ReadonlySet<string>, add: readonly string[]): Set<string> {
  const next = new Set(base);
  for (const key of add) next.add(key);
  return next;
}

function minus(base: ReadonlySet<string>, remove: readonly string[]): Set<string> {
  const next = new Set(base);
  for (const key of remove) next.delete(key);
  return next;
}

/** A press on a row (mouse down): select it, toggle it, or select the range from the anchor; starts a drag. */
export function pressRow(
  state: SelectionState,
  keys: readonly string[],
  index: number,
  modifiers: SelectionModifiers = noModifiers,
): SelectionState {
  const key = keys[index];
  if (key === undefined) return state;
  if (modifiers.isRange) {
    const anchorIndex = indexOf(keys, state.anchorKey);
    const from = anchorIndex === -1 ? index : anchorIndex;
    const range = rangeKeys(keys, from, index);
    const selected = modifiers.isToggle ? union(state.selected, range) : new Set(range);
    return { selected, anchorKey: keys[from], cursorKey: key, drag: undefined };
  }
  if (modifiers.isToggle) {
    const isSelected = state.selected.has(key);
    const selected = isSelected ? minus(state.selected, [key]) : union(state.selected, [key]);
    return {
      selected,
      anchorKey: key,
      cursorKey: key,
      drag: { base: state.selected, startKey: key, mode: isSelected ? 'remove' : 'add' },
    };
  }
  return {
    selected: state.selected,
    anchorKey: key,
    cursorKey: key,
    drag: { base: new Set(), startKey: key, mode: 'replace', isPending: true },
  };
}

/** A press on a row's checkbox: toggles the row, and a drag from there toggles the rows it crosses the same way; the cursor (the file shown) stays. */
export function pressCheck(state: SelectionState, keys: readonly string[], index: number): SelectionState {
  const pressed = pressRow(state, keys, index, { isRange: false, isToggle: true });
  return {
    ...pressed,
    cursorKey: state.cursorKey,
    drag: pressed.drag === undefined ? undefined : { ...pressed.drag, keepsCursor: true },
  };
}

/** Toggles a group of rows at once (a folder's checkbox): all of them selected when any was not, else none; the group's own key follows. */
export function toggleGroup(state: SelectionState, groupKey: string, members: readonly string[]): SelectionState {
  const isAll = members.length > 0 && members.every((key) => state.selected.has(key));
  const selected = isAll
    ? minus(state.selected, [groupKey, ...members])
    : union(state.selected, [groupKey, ...members]);
  return { selected, anchorKey: groupKey, cursorKey: state.cursorKey ?? groupKey, drag: undefined };
}

/** The pointer, still pressed, is over a row: the selection becomes the drag's range (added to, or taken from, its base). */
export function dragOver(state: SelectionState, keys: readonly string[], index: number): SelectionState {
  const { drag } = state;
  const key = keys[index];
  if (drag === undefined || key === undefined) return state;
  const startIndex = keys.indexOf(drag.startKey);
  if (startIndex === -1) return state;
  if (drag.isPending === true && key === drag.startKey) return state;
  const range = rangeKeys(keys, startIndex, index);
  const selected = drag.mode === 'remove' ? minus(drag.base, range) : union(drag.base, range);
  return {
    ...state,
    selected,
    cursorKey: drag.keepsCursor === true ? state.cursorKey : key,
    drag: drag.isPending === true ? { ...drag, isPending: false } : drag,
  };
}

/** The pointer was released: the drag ends, the selection stays. */
export function release(state: SelectionState): SelectionState {
  return state.drag === undefined ? state : { ...state, drag: undefined };
}

/** Every row selected (ctrl+A). */
export function selectAll(state: SelectionState, keys: readonly string[]): SelectionState {
  return {
    ...state,
    selected: new Set(keys),
    anchorKey: state.anchorKey ?? keys[0],
    cursorKey: state.cursorKey ?? keys[0],
    drag: undefined,
  };
}

/** Exactly these rows selected (a "select these" action, a restored selection). */
export function selectKeys(keys: readonly string[], chosen: readonly string[]): SelectionState {
  const allowed = new Set(keys);
  const selected = new Set(chosen.filter((key) => allowed.has(key)));
  const first = keys.find((key) => selected.has(key));
  return { selected, anchorKey: first, cursorKey: first, drag: undefined };
}

/** Keeps only keys still in the list (after a filter or a refresh); the cursor and anchor follow. */
export function retainKeys(state: SelectionState, keys: readonly string[]): SelectionState {
  const present = new Set(keys);
  const selected = new Set([...state.selected].filter((key) => present.has(key)));
  const keep = (key: string | undefined): string | undefined =>
    key !== undefined && present.has(key) ? key : undefined;
  if (
    selected.size === state.selected.size &&
    keep(state.anchorKey) === state.anchorKey &&
    keep(state.cursorKey) === state.cursorKey
  ) {
    return state;
  }
  return { selected, anchorKey: keep(state.anchorKey), cursorKey: keep(state.cursorKey), drag: undefined };
}

/** The selected keys in list order. */
export function selectedInOrder(state: SelectionState, keys: readonly string[]): string[] {
  return keys.filter((key) => state.selected.has(key));
}

/** Keys the selection model handles. */
export type SelectionKey =
  'ArrowUp' | 'ArrowDown' | 'Home' | 'End' | 'PageUp' | 'PageDown' | ' ' | 'a' | 'A' | 'Escape';

/** Whether a keyboard key is one the selection model handles. */
export function isSelectionKey(key: string): key is SelectionKey {
  return ['ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown', ' ', 'a', 'A', 'Escape'].includes(key);
}

function targetIndex(key: SelectionKey, current: number, count: number, pageSize: number): number {
  switch (key) {
    case 'ArrowUp':
      return current === -1 ? count - 1 : current - 1;
    case 'ArrowDown':
      return current + 1;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'PageUp':
      return current === -1 ? 0 : current - pageSize;
    case 'PageDown':
      return current === -1 ? pageSize - 1 : current + pageSize;
    case ' ':
    case 'a':
    case 'A':
    case 'Escape':
      return current;
  }
}

/**
 * A key press. Movement keys move the cursor (shift: and select the range from the anchor); space
 * toggles the cursor row; ctrl+A selects all; Escape clears. Returns `undefined` for a key it does
 * not handle, so the caller lets the key through.
 */
export function pressKey(
  state: SelectionState,
  keys: readonly string[],
  key: string,
  modifiers: SelectionModifiers = noModifiers,
  pageSize = 10,
): SelectionState | undefined {
  if (!isSelectionKey(key) || keys.length === 0) return undefined;
  if (key === 'a' || key === 'A') return modifiers.isToggle ? selectAll(state, keys) : undefined;
  if (key === 'Escape')
    return state.selected.size === 0 ? undefined : { ...state, selected: new Set(), drag: undefined };
  const current = indexOf(keys, state.cursorKey);
  if (key === ' ') {
    const cursor = keys[current === -1 ? 0 : current];
    if (cursor === undefined) return undefined;
    const selected = state.selected.has(cursor) ? minus(state.selected, [cursor]) : union(state.selected, [cursor]);
    return { selected, anchorKey: cursor, cursorKey: cursor, drag: undefined };
  }
  const next = Math.max(0, Math.min(keys.length - 1, targetIndex(key, current, keys.length, Math.max(1, pageSize))));
  const cursor = keys[next];
  if (cursor === undefined) return undefined;
  if (modifiers.isRange) {
    const anchorIndex = indexOf(keys, state.anchorKey);
    const from = anchorIndex === -1 ? (current === -1 ? next : current) : anchorIndex;
    return {
      selected: new Set(rangeKeys(keys, from, next)),
      anchorKey: keys[from],
      cursorKey: cursor,
      drag: undefined,
    };
  }
  return { ...state, anchorKey: cursor, cursorKey: cursor, drag: undefined };
}
