import { plural } from '../../model/format';

/**
 * The timeline's count and what the store keeps, in one line: "120 checkpoints · keeps the newest
 * 50 · 3 pinned" (pinned ones are kept whatever the count says). A filter shows "12 of 120".
 */
export function RetentionSummary({
  total,
  visible,
  isFiltered,
  isCurrent,
  maxSnapshots,
  maxStoreMiB,
  pinned,
}: {
  readonly total: number;
  readonly visible: number;
  readonly isFiltered: boolean;
  /** False while disconnected: the numbers are as they were when the link dropped. */
  readonly isCurrent: boolean;
  readonly maxSnapshots: number | undefined;
  readonly maxStoreMiB: number | undefined;
  readonly pinned: number;
}) {
  return (
    <span className="retention-summary muted">
      <span
        data-testid="timeline-count"
        data-state={isCurrent ? 'current' : 'not-current'}
        title={isCurrent ? undefined : 'Not connected: the count is as it was when the link dropped'}
      >
        {isFiltered ? `${visible.toLocaleString('en-US')} of ` : ''}
        {plural(total, 'checkpoint')}
      </span>
      {maxSnapshots !== undefined && (
        <>
          <span className="subtle"> · </span>
          <span
            className="subtle"
            data-testid="timeline-retention"
            title={`The newest ${maxSnapshots} checkpoints of each folder are kept (checkpoints.maxSnapshots)${maxStoreMiB === undefined ? '' : `, ${maxStoreMiB} MiB in all (checkpoints.maxStoreMiB)`}; a pinned one always, with every checkpoint after it (a timeline is cut at one point). Every drop is reported.`}
          >
            keeps the newest {maxSnapshots.toLocaleString('en-US')}
          </span>
        </>
      )}
      <span className="subtle"> · </span>
      <span
        className="subtle"
        data-testid="timeline-pinned"
        title="Pinned checkpoints are never dropped by retention or the size cap, nor are the checkpoints after them"
      >
        {pinned.toLocaleString('en-US')} pinned
      </span>
    </span>
  );
}
