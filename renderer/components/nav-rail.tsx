import type { KeyboardEvent } from 'react';

/** One entry of the navigation. */
export interface NavItem<Id extends string> {
  readonly id: Id;
  readonly label: string;
  readonly shortcut: string;
  /** A count that needs attention (pending approvals); hidden at 0. */
  readonly badge?: number;
}

/** The app's navigation: a vertical tab list; arrow keys move between entries. */
export function NavRail<Id extends string>({
  items,
  current,
  onSelect,
}: {
  readonly items: readonly NavItem<Id>[];
  readonly current: Id;
  readonly onSelect: (id: Id) => void;
}) {
  function onKeyDown(event: KeyboardEvent<HTMLElement>): void {
    const index = items.findIndex((item) => item.id === current);
    const delta = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (delta === 0) return;
    event.preventDefault();
    const next = items[(index + delta + items.length) % items.length];
    if (next === undefined) return;
    onSelect(next.id);
    const button = event.currentTarget.querySelector<HTMLButtonElement>(`[data-testid="nav-${next.id}"]`);
    button?.focus();
  }
  return (
    <nav className="nav-rail" aria-label="Screens">
      <ul role="tablist" aria-orientation="vertical" onKeyDown={onKeyDown}>
        {items.map((item) => (
          <li key={item.id} role="presentation">
            <button
              type="button"
              role="tab"
              data-testid={`nav-${item.id}`}
              aria-selected={item.id === current}
              aria-keyshortcuts={item.shortcut}
              tabIndex={item.id === current ? 0 : -1}
              title={`${item.label} (${item.shortcut})`}
              onClick={() => onSelect(item.id)}
            >
              <span className="nav-label">{item.label}</span>
              {item.badge !== undefined && item.badge > 0 ? (
                <span className="nav-badge" data-testid={`nav-${item.id}-badge`}>
                  {item.badge}
                </span>
              ) : (
                <span className="nav-shortcut">{item.shortcut}</span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
