import { useEffect, useRef, type KeyboardEvent } from 'react';

/** A group of keyboard shortcuts. */
export interface ShortcutGroup {
  readonly title: string;
  readonly keys: readonly (readonly [keys: string, does: string])[];
}

/** The keyboard reference ("?"), closed with Escape or a click outside. */
export function ShortcutsHelp({
  groups,
  onClose,
}: {
  readonly groups: readonly ShortcutGroup[];
  readonly onClose: () => void;
}) {
  const panelRef = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    panelRef.current?.focus();
  }, []);
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    if (event.key === 'Escape' || event.key === '?') {
      event.preventDefault();
      onClose();
    }
  }
  return (
    <div className="overlay" onPointerDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={panelRef}
        className="shortcuts"
        role="dialog"
        aria-label="Keyboard shortcuts"
        tabIndex={-1}
        onKeyDown={onKeyDown}
        data-testid="shortcuts"
      >
        {groups.map((group) => (
          <section key={group.title}>
            <h3>{group.title}</h3>
            <dl>
              {group.keys.map(([keys, does]) => (
                <div key={keys} className="shortcut-row">
                  <dt>
                    <kbd>{keys}</kbd>
                  </dt>
                  <dd>{does}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </div>
  );
}
