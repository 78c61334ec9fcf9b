import { describe, expect, it } from 'vitest';
import {
  dragOver,
  emptySelection,
  pressKey,
  pressCheck,
  pressRow,
  toggleGroup,
  release,
  retainKeys,
  selectAll,
  selectedInOrder,
  selectKeys,
  type SelectionState,
} from './selection-model';

const files = ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts'];
const shift = { isRange: true, isToggle: false };
const ctrl = { isRange: false, isToggle: true };
const ctrlShift = { isRange: true, isToggle: true };

function chosen(state: SelectionState): string[] {
  return selectedInOrder(state, files);
}

describe('pointer selection', () => {
  it('a plain click moves the cursor and the anchor there and keeps the selection as it was', () => {
    const state = release(pressRow(selectKeys(files, ['a.ts', 'e.ts']), files, 2));
    expect(chosen(state)).toEqual(['a.ts', 'e.ts']);
    expect(state.anchorKey).toBe('c.ts');
    expect(state.cursorKey).toBe('c.ts');
    // A press that wanders off its row and back is a drag: it selects the row.
    expect(chosen(release(dragOver(dragOver(pressRow(emptySelection, files, 2), files, 2), files, 2)))).toEqual([]);
    expect(chosen(release(dragOver(dragOver(pressRow(emptySelection, files, 2), files, 3), files, 2)))).toEqual([
      'c.ts',
    ]);
  });

  it('a checkbox press toggles its row and keeps the rest; a group toggles all its rows', () => {
    let state = release(pressCheck(selectKeys(files, ['a.ts']), files, 2));
    expect(chosen(state)).toEqual(['a.ts', 'c.ts']);
    state = release(pressCheck(state, files, 0));
    expect(chosen(state)).toEqual(['c.ts']);
    // The checkbox leaves the cursor (the file shown) where it was, a drag from it too.
    const shown = release(pressRow(emptySelection, files, 4));
    let ticked = pressCheck(shown, files, 0);
    ticked = release(dragOver(ticked, files, 2));
    expect(chosen(ticked)).toEqual(['a.ts', 'b.ts', 'c.ts']);
    expect(ticked.cursorKey).toBe('e.ts');
    state = toggleGroup(state, 'src/', ['b.ts', 'c.ts', 'd.ts']);
    expect(chosen(state)).toEqual(['b.ts', 'c.ts', 'd.ts']);
    state = toggleGroup(state, 'src/', ['b.ts', 'c.ts', 'd.ts']);
    expect(chosen(state)).toEqual([]);
  });

  it('press and drag across rows selects the rows between, in both directions', () => {
    let state = pressRow(emptySelection, files, 1);
    state = dragOver(state, files, 2);
    state = dragOver(state, files, 3);
    expect(chosen(state)).toEqual(['b.ts', 'c.ts', 'd.ts']);
    state = dragOver(state, files, 0);
    expect(chosen(state)).toEqual(['a.ts', 'b.ts']);
    state = release(state);
    expect(state.drag).toBeUndefined();
    expect(chosen(dragOver(state, files, 4))).toEqual(['a.ts', 'b.ts']);
  });

  it('shift-press selects the range from the anchor; the anchor stays for the next shift-press', () => {
    let state = release(pressRow(emptySelection, files, 1));
    state = pressRow(state, files, 3, shift);
    expect(chosen(state)).toEqual(['b.ts', 'c.ts', 'd.ts']);
    state = pressRow(state, files, 0, shift);
    expect(chosen(state)).toEqual(['a.ts', 'b.ts']);
    expect(state.anchorKey).toBe('b.ts');
  });

  it('ctrl-press toggles one row and keeps the rest', () => {
    let state = release(pressRow(emptySelection, files, 0, ctrl));
    state = release(pressRow(state, files, 2, ctrl));
    state = release(pressRow(state, files, 4, ctrl));
    expect(chosen(state)).toEqual(['a.ts', 'c.ts', 'e.ts']);
    state = release(pressRow(state, files, 2, ctrl));
    expect(chosen(state)).toEqual(['a.ts', 'e.ts']);
  });

  it('ctrl-drag adds a range to the selection, or removes it when it started on a selected row', () => {
    let state = release(pressRow(emptySelection, files, 0, ctrl));
    state = release(dragOver(dragOver(pressRow(state, files, 2, ctrl), files, 3), files, 4));
    expect(chosen(state)).toEqual(['a.ts', 'c.ts', 'd.ts', 'e.ts']);
    state = release(dragOver(pressRow(state, files, 3, ctrl), files, 4));
    expect(chosen(state)).toEqual(['a.ts', 'c.ts']);
  });

  it('ctrl+shift-press adds the range to what is selected', () => {
    let state = release(pressRow(emptySelection, files, 0, ctrl));
    state = release(pressRow(state, files, 3, ctrl));
    state = pressRow(state, files, 4, ctrlShift);
    expect(chosen(state)).toEqual(['a.ts', 'd.ts', 'e.ts']);
  });

  it('ignores a press outside the list', () => {
    expect(pressRow(emptySelection, files, 9)).toBe(emptySelection);
  });
});

describe('keyboard selection', () => {
  it('arrows move the cursor and keep the selection; at the ends they stop', () => {
    let state = pressKey(emptySelection, files, 'ArrowDown');
    expect(state?.cursorKey).toBe('a.ts');
    state = pressKey(state ?? emptySelection, files, 'ArrowDown');
    expect(state?.cursorKey).toBe('b.ts');
    expect(chosen(state ?? emptySelection)).toEqual([]);
    expect(pressKey(emptySelection, files, 'ArrowUp')?.cursorKey).toBe('e.ts');
    state = pressKey(selectKeys(files, ['e.ts']), files, 'ArrowDown');
    expect(state?.cursorKey).toBe('e.ts');
    expect(chosen(state ?? emptySelection)).toEqual(['e.ts']);
  });

  it('shift+arrows extend from the anchor and shrink back over it', () => {
    let state: SelectionState = release(pressRow(emptySelection, files, 2));
    state = pressKey(state, files, 'ArrowDown', shift) ?? state;
    state = pressKey(state, files, 'ArrowDown', shift) ?? state;
    expect(chosen(state)).toEqual(['c.ts', 'd.ts', 'e.ts']);
    state = pressKey(state, files, 'ArrowUp', shift) ?? state;
    state = pressKey(state, files, 'ArrowUp', shift) ?? state;
    state = pressKey(state, files, 'ArrowUp', shift) ?? state;
    expect(chosen(state)).toEqual(['b.ts', 'c.ts']);
  });

  it('ctrl+arrows move the cursor only, and space toggles the row under it', () => {
    let state: SelectionState = release(pressRow(emptySelection, files, 0, ctrl));
    state = pressKey(state, files, 'ArrowDown', ctrl) ?? state;
    state = pressKey(state, files, 'ArrowDown', ctrl) ?? state;
    expect(chosen(state)).toEqual(['a.ts']);
    expect(state.cursorKey).toBe('c.ts');
    state = pressKey(state, files, ' ') ?? state;
    expect(chosen(state)).toEqual(['a.ts', 'c.ts']);
    state = pressKey(state, files, ' ') ?? state;
    expect(chosen(state)).toEqual(['a.ts']);
  });

  it('ctrl+A selects every row; a plain "a" is not handled', () => {
    expect(chosen(pressKey(emptySelection, files, 'a', ctrl) ?? emptySelection)).toEqual(files);
    expect(pressKey(emptySelection, files, 'a')).toBeUndefined();
  });

  it('Home, End and the page keys jump; Escape clears and is not handled when nothing is selected', () => {
    const state = selectKeys(files, ['c.ts']);
    expect(pressKey(state, files, 'Home')?.cursorKey).toBe('a.ts');
    expect(pressKey(state, files, 'End')?.cursorKey).toBe('e.ts');
    expect(pressKey(state, files, 'PageDown', undefined, 2)?.cursorKey).toBe('e.ts');
    expect(pressKey(state, files, 'PageUp', undefined, 2)?.cursorKey).toBe('a.ts');
    expect(chosen(pressKey(state, files, 'Escape') ?? state)).toEqual([]);
    expect(pressKey(emptySelection, files, 'Escape')).toBeUndefined();
    expect(pressKey(state, files, 'x')).toBeUndefined();
    expect(pressKey(state, [], 'ArrowDown')).toBeUndefined();
  });
});

describe('the list changes under the selection', () => {
  it('keeps only the keys still present, and returns the same state when nothing changed', () => {
    const state = selectKeys(files, ['b.ts', 'd.ts']);
    const filtered = retainKeys(state, ['a.ts', 'd.ts']);
    expect([...filtered.selected]).toEqual(['d.ts']);
    expect(filtered.anchorKey).toBeUndefined();
    expect(retainKeys(state, files)).toBe(state);
  });

  it('follows keys, not positions, when the order changes', () => {
    const state = selectAll(emptySelection, files);
    const reversed = [...files].reverse();
    expect(selectedInOrder(state, reversed)).toEqual(reversed);
    expect(selectKeys(files, ['zzz', 'c.ts']).selected).toEqual(new Set(['c.ts']));
  });
});
