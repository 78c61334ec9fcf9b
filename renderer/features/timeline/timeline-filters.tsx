import { useEffect, useRef, useState, type RefObject } from 'react';
import { actorColourClass, actorHints, actorName, numberedActor } from '../../model/actor-view';
import type { SessionIdentities } from '../../model/session-lanes';
import { selectSessionIdentities } from '../../stores/select-session-identities';
import { actorsInTimeline, reasonChoices, type ReasonCategory, type TimelineEntry } from '../../model/timeline-filter';
import { useAppStore } from '../../stores/store-context';

/** "/" anywhere outside a text field focuses the text search. */
function useSlashFocus(textRef: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      const target = event.target;
      if (
        event.key !== '/' ||
        (target instanceof HTMLElement && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
      )
        return;
      event.preventDefault();
      textRef.current?.focus();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [textRef]);
}

/** Who made the checkpoints: one chip per actor, in its lane colour, with its count; pressed ones filter. */
function ActorChips({
  actors,
  chosen,
  identities,
  onToggle,
}: {
  readonly actors: ReturnType<typeof actorsInTimeline>;
  readonly identities: SessionIdentities;
  readonly chosen: readonly string[];
  readonly onToggle: (key: string) => void;
}) {
  return (
    <div className="filter-chips" role="group" aria-label="Who">
      {actors.map(({ key, actor: seen, count }) => {
        const actor = numberedActor(seen, identities);
        return (
          <button
            key={key}
            type="button"
            className={`chip ${actorColourClass(actor, identities)}`}
            aria-pressed={chosen.includes(key)}
            data-testid="actor-filter"
            data-actor={key}
            title={actor.kind === 'session' ? `${actorName(actor)} (${actor.sessionId})` : actorHints[actor.kind]}
            onClick={() => onToggle(key)}
          >
            <span className="lane-dot" aria-hidden="true" />
            {actorName(actor)}
            <span className="subtle">{count}</span>
          </button>
        );
      })}
    </div>
  );
}

/** The timeline's filters: who (chips in their lane colour: sessions, you in the app, the CLI, Vigil, outside), reason, a path, and text. "/" focuses the text. */
export function TimelineFilters({ entries }: { readonly entries: readonly TimelineEntry[] }) {
  const filter = useAppStore((state) => state.timelineFilter);
  const fileFilter = useAppStore((state) => state.fileFilter);
  const setTimelineFilter = useAppStore((state) => state.setTimelineFilter);
  const filterByFile = useAppStore((state) => state.filterByFile);
  const [path, setPath] = useState(fileFilter?.path ?? '');
  const textRef = useRef<HTMLInputElement | null>(null);
  const actors = actorsInTimeline(entries);
  const identities = useAppStore(selectSessionIdentities);
  useSlashFocus(textRef);

  function toggleActor(key: string): void {
    const chosen = filter.actors.includes(key) ? filter.actors.filter((id) => id !== key) : [...filter.actors, key];
    setTimelineFilter({ actors: chosen });
  }

  return (
    <div className="timeline-filters" role="search" aria-label="Filter the timeline">
      {actors.length > 1 && (
        <ActorChips actors={actors} chosen={filter.actors} identities={identities} onToggle={toggleActor} />
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
