import { memo, type ReactNode } from 'react';
import type { Actor } from '../../../shared/contract/actor-model';
import { actorHints, actorName } from '../../model/actor-view';
import { formatClock, formatDate, formatRelativeTime, plural, shortId } from '../../model/format';
import type { HeldState } from '../../model/held-state';
import type { ChangeCounts, StatsAfter, TitleSource } from '../../model/row-words';
import type { ReasonCategory, TimelineEntry } from '../../model/timeline-filter';
import { escapeControls } from '../../../shared/text/control-characters';

/** The lane columns of one row: which column is its actor's, of how many. */
export interface RowLanes {
  readonly column: number;
  readonly columns: number;
}

function Lanes({ lanes }: { readonly lanes: RowLanes }) {
  return (
    <div className="timeline-lanes" aria-hidden="true">
      {Array.from({ length: lanes.columns }, (_, index) => (
        <span key={index} className={`timeline-lane ${index === lanes.column ? 'is-own' : ''}`}>
          {index === lanes.column && <span className="timeline-dot" />}
        </span>
      ))}
    </div>
  );
}

/** +insertions −deletions · N files, and what they cover. */
function Counts({ counts, scope }: { readonly counts: ChangeCounts; readonly scope: string }) {
  return (
    <>
      <span className="stat-added">+{counts.insertions}</span> <span className="stat-removed">−{counts.deletions}</span>
      <span className="subtle">
        {' '}
        · {plural(counts.files, 'file')} {scope}
      </span>
    </>
  );
}

/** Every actor's changes after a turn's checkpoint, beside the turn's own: shown only when they differ. */
function AllSessions({ stats }: { readonly stats: Exclude<StatsAfter, { readonly scope: 'turn' } | undefined> }) {
  const counts = stats.counts;
  if (counts === undefined)
    return stats.scope === 'live' ? (
      <span className="subtle" data-testid="row-all-stats" data-state="not-current">
        {' '}
        · {stats.note}
      </span>
    ) : null;
  return (
    <span
      className="subtle"
      data-testid="row-all-stats"
      title="Every session's and person's changes after this checkpoint"
    >
      {' '}
      · all sessions +{counts.insertions} −{counts.deletions} · {plural(counts.files, 'file')}
    </span>
  );
}

/** A session turn's own changes in the folder (its changeset), with every actor's as a separate figure when they differ. */
function TurnStats({ stats }: { readonly stats: Extract<StatsAfter, { readonly scope: 'turn' }> }) {
  const { counts, all } = stats;
  const isSame =
    all?.counts !== undefined &&
    all.counts.files === counts.files &&
    all.counts.insertions === counts.insertions &&
    all.counts.deletions === counts.deletions;
  return (
    <span
      className="timeline-stats"
      data-testid="row-stats"
      data-scope="turn"
      data-files={counts.files}
      data-insertions={counts.insertions}
      data-deletions={counts.deletions}
      title={`This turn's own changes in this folder${stats.isPartlyCounted ? ' (some changes by commands are not counted in lines)' : ''}`}
    >
      {counts.files === 0 ? (
        <span className="subtle">no change by this turn</span>
      ) : (
        <Counts counts={counts} scope={stats.isPartlyCounted ? 'this turn (at least)' : 'this turn'} />
      )}
      {all !== undefined && !isSame && <AllSessions stats={all} />}
    </span>
  );
}

/** What a row's stats say, and what they measure (in its tooltip). */
function Stats({ stats }: { readonly stats: StatsAfter }) {
  if (stats === undefined) return null;
  if (stats.scope === 'turn') return <TurnStats stats={stats} />;
  const counts = stats.counts;
  const scope = stats.scope === 'live' ? 'in the live folder since' : 'until the next checkpoint';
  const title =
    stats.scope === 'live'
      ? 'Changes made after this checkpoint, in the folder as it is now (not yet in any checkpoint)'
      : 'Changes made after this checkpoint, up to the next one';
  if (counts === undefined) {
    return (
      <span
        className="timeline-stats subtle"
        data-testid="row-stats"
        data-scope={stats.scope}
        data-state="not-current"
        title={title}
      >
        {stats.scope === 'live' ? stats.note : ''}
      </span>
    );
  }
  return (
    <span className="timeline-stats" data-testid="row-stats" data-scope={stats.scope} title={title}>
      {counts.files === 0 ? (
        <span className="subtle">{stats.scope === 'live' ? 'no change since' : 'no change until the next'}</span>
      ) : (
        <Counts counts={counts} scope={scope} />
      )}
    </span>
  );
}

/** A row's second line: who (and which turn and tool), what it holds, what changed after it, its id. */
function RowSub({
  entry,
  actor,
  stats,
  held,
}: {
  readonly entry: TimelineEntry;
  readonly actor: Actor;
  readonly stats: StatsAfter;
  readonly held: HeldState | undefined;
}) {
  const turn = actor.kind === 'session' && actor.turn !== undefined ? `turn ${actor.turn}` : undefined;
  return (
    <div className="timeline-line timeline-sub">
      <span
        className="timeline-who"
        data-testid="row-actor"
        data-actor={actor.kind}
        title={actor.kind === 'session' ? `${actorName(actor)} · ${actor.sessionId}` : actorHints[actor.kind]}
      >
        {actorName(actor)}
        {turn === undefined ? '' : ` · ${turn}`}
        {actor.kind === 'session' && actor.tool !== undefined ? ` · ${actor.tool}` : ''}
      </span>
      {held !== undefined && (
        <span className="timeline-held" data-testid="row-held" data-when={held.when}>
          {held.text}
        </span>
      )}
      <Stats stats={stats} />
      <span className="mono subtle">{shortId(entry.id)}</span>
    </div>
  );
}

/**
 * One checkpoint on a timeline: the actor's lanes, a title a person reads (the turn's message, a
 * summary of its calls, or the reason), the reason kind as a chip, who, what changed after it,
 * and when (the time of day under its day's heading; the relative time on hover). Memoized:
 * scrolling draws only the rows that come into view.
 */
export const TimelineRow = memo(function TimelineRow({
  entry,
  actor,
  laneClass,
  lanes,
  title,
  reason,
  stats,
  isInTurn,
  now,
  actions,
  held,
}: {
  readonly entry: TimelineEntry;
  readonly actor: Actor;
  readonly laneClass: string;
  readonly lanes: RowLanes;
  readonly title: { readonly text: string; readonly source: TitleSource };
  readonly reason: { readonly kind: ReasonCategory; readonly label: string };
  readonly stats: StatsAfter;
  /** Under its turn's heading, which names the turn: the row says only what differs. */
  readonly isInTurn: boolean;
  readonly now: number;
  /** The row's own actions (restore, rewind), shown on hover and on the selected row. */
  readonly actions?: ReactNode;
  /** What the checkpoint holds (before or after a change), where rows of both kinds meet (a memory folder). */
  readonly held?: HeldState | undefined;
}) {
  const reasonText = escapeControls(entry.reason);
  return (
    <div
      role="gridcell"
      className={`timeline-row ${laneClass}`}
      data-kind={entry.kind}
      data-in-turn={isInTurn ? 'true' : undefined}
    >
      <Lanes lanes={lanes} />
      <div className="timeline-main">
        <div className="timeline-line">
          <span className="reason-chip" data-reason={reason.kind} data-testid="row-reason" title={reasonText}>
            {reason.label}
          </span>
          {entry.source === 'hermes' && <span className="badge">Hermes</span>}
          <span
            className="timeline-title"
            data-testid="row-title"
            data-source={title.source}
            title={title.source === 'reason' ? reasonText : `${title.text}\n(${reasonText})`}
          >
            {isInTurn && (title.source === 'message' || title.source === 'calls') ? reasonText : title.text}
          </span>
          {actions}
          <time
            dateTime={entry.time}
            title={`${formatRelativeTime(entry.time, now)} · ${formatDate(entry.time)}`}
            data-testid="row-time"
          >
            {formatClock(entry.time)}
          </time>
        </div>
        <RowSub entry={entry} actor={actor} stats={stats} held={held} />
      </div>
    </div>
  );
});

/** A day's heading in the timeline. */
export function TimelineDayHeading({ label }: { readonly label: string }) {
  return (
    <div role="gridcell" className="timeline-day" data-testid="timeline-day">
      {label}
    </div>
  );
}

/** The heading of a turn with several checkpoints in view: who, which turn, what it was about. */
export function TimelineTurnHeading({
  actor,
  laneClass,
  title,
  count,
}: {
  readonly actor: Actor;
  readonly laneClass: string;
  readonly title: string;
  readonly count: number;
}) {
  return (
    <div role="gridcell" className={`timeline-turn ${laneClass}`} data-testid="timeline-turn">
      <span className="lane-dot" aria-hidden="true" />
      <span className="timeline-turn-who">
        {actorName(actor)}
        {actor.kind === 'session' && actor.turn !== undefined ? ` · turn ${actor.turn}` : ''}
      </span>
      <span className="timeline-title" data-testid="turn-title">
        {title}
      </span>
      <span className="subtle">{plural(count, 'checkpoint')}</span>
    </div>
  );
}
