/** How close a memory file is to its limit; amber from 80 %, red at the limit. */
export function UsageBar({
  chars,
  limit,
  testId,
}: {
  readonly chars: number;
  readonly limit: number;
  readonly testId?: string;
}) {
  const ratio = limit > 0 ? chars / limit : 0;
  const level = ratio >= 1 ? 'full' : ratio >= 0.8 ? 'high' : 'ok';
  const percent = Math.min(100, Math.round(ratio * 100));
  return (
    <div className="usage" data-testid={testId} data-level={level}>
      <div
        className="usage-track"
        role="meter"
        aria-label="Characters used"
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={chars}
      >
        <div className="usage-fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="usage-text">
        {chars.toLocaleString('en-US')} / {limit.toLocaleString('en-US')} chars · {percent}%
      </span>
    </div>
  );
}
