import { formatCountdown } from '../../model/format';

/** Time left until a deadline, urgent in the last 15 seconds. */
export function Countdown({
  deadline,
  now,
  label,
}: {
  readonly deadline: string;
  readonly now: number;
  readonly label: string;
}) {
  const remaining = Date.parse(deadline) - now;
  const state = remaining <= 0 ? 'expired' : remaining <= 15_000 ? 'urgent' : 'running';
  return (
    <span className="countdown" data-state={state} title={`${label} at ${new Date(deadline).toLocaleTimeString()}`}>
      <span className="countdown-label">{label}</span> <time dateTime={deadline}>{formatCountdown(remaining)}</time>
    </span>
  );
}
