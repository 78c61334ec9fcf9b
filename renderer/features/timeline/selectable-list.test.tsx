import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emptySelection, selectedInOrder, type SelectionState } from '../../model/selection-model';
import { giveElementsLayout } from '../../test-support/layout';
import { SelectableList } from './selectable-list';

const keys = ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts'];

let undoLayout: () => void = () => undefined;
beforeAll(() => {
  undoLayout = giveElementsLayout({ width: 600, height: 400 });
});
afterAll(() => undoLayout());
afterEach(cleanup);

function Harness({
  onChange,
  onActivate,
}: {
  readonly onChange: (selected: string[]) => void;
  readonly onActivate?: (key: string) => void;
}) {
  const [selection, setSelection] = useState<SelectionState>(emptySelection);
  return (
    <SelectableList
      keys={keys}
      selection={selection}
      onSelectionChange={(next) => {
        setSelection(next);
        onChange(selectedInOrder(next, keys));
      }}
      onActivate={onActivate}
      rowHeight={24}
      label="Changed files"
      testId="files"
      renderRow={(row) => (
        <span data-selected={row.isSelected ? 'yes' : 'no'}>
          <span data-role="check" data-testid={`check-${row.key}`}>
            {row.isSelected ? '☑' : '☐'}
          </span>
          {row.key}
        </span>
      )}
    />
  );
}

function row(name: string): HTMLElement {
  return screen.getByText(name);
}

describe('SelectableList', () => {
  it('selects the rows a pressed pointer drags across, and stops at release', () => {
    let selected: string[] = [];
    render(<Harness onChange={(next) => (selected = next)} />);
    fireEvent.pointerDown(row('b.ts'), { button: 0 });
    fireEvent.pointerMove(row('c.ts'));
    fireEvent.pointerMove(row('d.ts'));
    expect(screen.getByTestId('files').getAttribute('data-state')).toBe('dragging');
    act(() => {
      window.dispatchEvent(new Event('pointerup'));
    });
    fireEvent.pointerMove(row('e.ts'));
    expect(selected).toEqual(['b.ts', 'c.ts', 'd.ts']);
    expect(screen.getByTestId('files').getAttribute('data-selected-count')).toBe('3');
    expect(screen.getByTestId('files').getAttribute('data-state')).toBe('idle');
    expect(screen.getAllByRole('row', { selected: true })).toHaveLength(3);
  });

  it('extends with shift-click and toggles with ctrl-click', () => {
    let selected: string[] = [];
    render(<Harness onChange={(next) => (selected = next)} />);
    fireEvent.pointerDown(row('a.ts'), { button: 0 });
    act(() => {
      window.dispatchEvent(new Event('pointerup'));
    });
    fireEvent.pointerDown(row('c.ts'), { button: 0, shiftKey: true });
    expect(selected).toEqual(['a.ts', 'b.ts', 'c.ts']);
    fireEvent.pointerDown(row('b.ts'), { button: 0, ctrlKey: true });
    act(() => {
      window.dispatchEvent(new Event('pointerup'));
    });
    fireEvent.pointerDown(row('e.ts'), { button: 0, metaKey: true });
    act(() => {
      window.dispatchEvent(new Event('pointerup'));
    });
    expect(selected).toEqual(['a.ts', 'c.ts', 'e.ts']);
  });

  it('selects from the keyboard and opens the cursor row with Enter', () => {
    let selected: string[] = [];
    const opened: string[] = [];
    render(<Harness onChange={(next) => (selected = next)} onActivate={(key) => opened.push(key)} />);
    const list = screen.getByRole('grid', { name: 'Changed files' });
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    fireEvent.keyDown(list, { key: 'ArrowDown', shiftKey: true });
    fireEvent.keyDown(list, { key: 'ArrowDown', shiftKey: true });
    expect(selected).toEqual(['a.ts', 'b.ts', 'c.ts']);
    fireEvent.keyDown(list, { key: 'Enter' });
    expect(opened).toEqual(['c.ts']);
    fireEvent.keyDown(list, { key: 'a', ctrlKey: true });
    expect(selected).toEqual(keys);
    expect(list.getAttribute('aria-activedescendant')).toMatch(/-2$/);
  });

  it('a click moves the cursor without selecting; the checkbox selects', () => {
    let selected: string[] = [];
    render(<Harness onChange={(next) => (selected = next)} />);
    fireEvent.pointerDown(row('b.ts'), { button: 0 });
    act(() => {
      window.dispatchEvent(new Event('pointerup'));
    });
    expect(selected).toEqual([]);
    expect(screen.getByRole('grid').getAttribute('aria-activedescendant')).toMatch(/-1$/);
    fireEvent.pointerDown(screen.getByTestId('check-d.ts'), { button: 0 });
    act(() => {
      window.dispatchEvent(new Event('pointerup'));
    });
    fireEvent.pointerDown(screen.getByTestId('check-b.ts'), { button: 0 });
    act(() => {
      window.dispatchEvent(new Event('pointerup'));
    });
    expect(selected).toEqual(['b.ts', 'd.ts']);
    fireEvent.pointerDown(screen.getByTestId('check-d.ts'), { button: 0 });
    expect(selected).toEqual(['b.ts']);
  });

  it('ignores presses of other buttons than the primary', () => {
    let selected: string[] = [];
    render(<Harness onChange={(next) => (selected = next)} />);
    fireEvent.pointerDown(row('b.ts'), { button: 2 });
    expect(selected).toEqual([]);
  });
});
