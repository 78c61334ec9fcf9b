import { useEffect, useRef, useState } from 'react';
import { sessionColourClass } from '../../model/session-lanes';
import { reasonChoices, sessionsInTimeline, type ReasonCategory, type TimelineEntry } from '../../model/timeline-filter';
import { useAppStore } from '../../stores/store-context';

/** The timeline's filters: sessions (chips in their lane colour), reason, a path, and text. "/" focuses the text. */
export function TimelineFilters({ entries }: { readonly entries: readonly TimelineEntry[] }) {
  const filter = useAppStore((state) => state.timelineFilter);
  const fileFilter = useAppStore((state) => state.fileFilter);
  const setTimelineFilter = useAppStore((state) => state.setTimelineFilter);
  const filterByFile = useAppStore((state) => state.filterByFile);
  const [path, setPath] = useState(fileFilter?.path ?? '');
  const textRef = useRef<HTMLInputElement | null>(null);
  const sessions = sessionsInTimeline(entries);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      const target = event.target;
      if (event.key !== '/' || (target instanceof HTMLElement && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
      event.preventDefault();
      textRef.current?.focus();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  function toggleSession(sessionId: string): void {
    const chosen = filter.sessionIds.includes(sessionId) ? filter.sessionIds.filter((id) => id !== sessionId) : [...filter.sessionIds, sessionId];
    setTimelineFilter({ sessionIds: chosen });
  }

  return (
    <div className="timeline-filters" role="search" aria-label="Filter the timeline">
      {sessions.length > 1 && (
        <div className="filter-chips" role="group" aria-label="Sessions">
          {sessions.map((session) => (
            <button
              key={session.sessionId}
              type="button"
              className={`chip ${sessionColourClass(session.sessionId === '' ? undefined : session.sessionId)}`}
              aria-pressed={filter.sessionIds.includes(session.sessionId)}
              data-testid="session-filter"
              data-session-id={session.sessionId}
              title={session.sessionId === '' ? 'Checkpoints taken outside any session' : session.sessionId}
              onClick={() => toggleSession(session.sessionId)}
            >
              <span className="lane-dot" aria-hidden="true" />
              {session.sessionId === '' ? 'no session' : (session.agent ?? session.sessionId.slice(0, 10))}
              <span className="subtle">{session.count}</span>
            </button>
          ))}
        </div>
      )}
      <select
        className="select"
        aria-label="Reason"
        data-testid="reason-filter"
        value={filter.reason}
        onChange={(event) => setTimelineFilter({ reason: event.target.value as ReasonCategory | 'all' })}
      >
        {reasonChoices.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <form
        className="file-filter"
        onSubmit={(event) => {
          event.preventDefault();
          void filterByFile(path);
        }}
      >
        <input
          className="input mono"
          placeholder="Changed path (Enter)"
          aria-label="Only checkpoints that changed this file or folder"
          data-testid="file-filter"
          value={path}
          onChange={(event) => {
            setPath(event.target.value);
            if (event.target.value === '') void filterByFile('');
          }}
        />
      </form>
      <input
        ref={textRef}
        className="input"
        type="search"
        placeholder="Search  /"
        aria-label="Search reason, tool, agent, id"
        data-testid="text-filter"
        value={filter.text}
        onChange={(event) => setTimelineFilter({ text: event.target.value })}
      />
    </div>
  );
}
