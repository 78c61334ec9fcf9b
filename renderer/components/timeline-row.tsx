import { memo, type ReactNode } from 'react';
import type { TimelineEntry } from '../model/timeline-filter';
import { formatDate, formatRelativeTime, shortId } from '../model/format';
import { escapeControls } from '../../shared/text/control-characters';

/** One checkpoint on a timeline: the session lanes, why it was taken, by whom, what changed, when. Memoized: scrolling draws only the rows that come into view. */
export const TimelineRow = memo(function TimelineRow({
  entry,
  laneClass,
  column,
  columns,
  now,
  actions,
}: {
  readonly entry: TimelineEntry;
  readonly laneClass: string;
  /** The entry's lane column, of `columns`. */
  readonly column: number;
  readonly columns: number;
  readonly now: number;
  /** The row's own actions (restore, rewind), shown on hover and on the selected row. */
  readonly actions?: ReactNode;
}) {
  const { attribution, stats } = entry;
  const isRestorePoint = entry.kind === 'pre-rollback';
  const who = [attribution.agent ?? (attribution.sessionId === undefined ? 'outside any session' : undefined), attribution.turn === undefined ? undefined : `turn ${attribution.turn}`, attribution.tool]
    .filter((part): part is string => part !== undefined)
    .join(' · ');
  const reason = escapeControls(entry.name ?? entry.reason);
  return (
    <div className={`timeline-row ${laneClass}`} data-kind={entry.kind}>
      <div className="timeline-lanes" aria-hidden="true">
        {Array.from({ length: columns }, (_, index) => (
          <span key={index} className={`timeline-lane ${index === column ? 'is-own' : ''}`}>
            {index === column && <span className="timeline-dot" />}
          </span>
        ))}
      </div>
      <div className="timeline-main">
        <div className="timeline-line">
          {isRestorePoint && (
            <span className="badge" data-kind="restore-point">
              undo restore
            </span>
          )}
          {entry.source === 'hermes' && <span className="badge">Hermes</span>}
          <span className="timeline-reason" title={reason}>
            {reason}
          </span>
          {actions}
          <span className="timeline-stats">
            <span className="stat-added">+{stats.insertions}</span> <span className="stat-removed">−{stats.deletions}</span>
            <span className="subtle"> · {stats.files === 1 ? '1 file' : `${stats.files} files`}</span>
          </span>
        </div>
        <div className="timeline-line timeline-sub">
          <span className="timeline-who">{escapeControls(who)}</span>
          <span className="mono subtle">{shortId(entry.id)}</span>
          <time dateTime={entry.time} title={formatDate(entry.time)}>
            {formatRelativeTime(entry.time, now)}
          </time>
        </div>
      </div>
    </div>
  );
});
