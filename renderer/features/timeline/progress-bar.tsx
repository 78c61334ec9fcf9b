/** Progress of a long job: a determinate bar when the total is known, an indeterminate one otherwise. */
export function ProgressBar({
  done,
  total,
  label,
  detail,
  testId = 'progress',
}: {
  readonly done: number;
  readonly total: number | undefined;
  readonly label: string;
  readonly detail?: string;
  readonly testId?: string;
}) {
  const isKnown = total !== undefined && total > 0;
  const fraction = isKnown ? Math.min(1, done / total) : 0;
  return (
    <div className="progress" data-testid={testId} data-state={isKnown ? 'determinate' : 'indeterminate'}>
      <div className="progress-label">
        <span>{label}</span>
        {isKnown && (
          <span className="progress-count">
            {done.toLocaleString('en-US')} / {total.toLocaleString('en-US')}
          </span>
        )}
      </div>
      <div
        className="progress-track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={isKnown ? total : undefined}
        aria-valuenow={isKnown ? done : undefined}
      >
        <div className="progress-fill" style={isKnown ? { width: `${(fraction * 100).toFixed(1)}%` } : undefined} />
      </div>
      {detail !== undefined && <div className="progress-detail">{detail}</div>}
    </div>
  );
}
