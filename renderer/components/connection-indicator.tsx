import type { ConnectionState } from '../model/connection-state';

const labels: Readonly<Record<ConnectionState['kind'], string>> = {
  connecting: 'Connecting…',
  connected: 'Connected',
  reconnecting: 'Reconnecting…',
  disconnected: 'Disconnected',
};

/** Shows whether the UI is linked to the core, and why not when it is not. */
export function ConnectionIndicator({ state }: { readonly state: ConnectionState }) {
  const reason = state.kind === 'reconnecting' || state.kind === 'disconnected' ? state.reason : undefined;
  return (
    <div
      className="connection"
      data-testid="connection"
      data-state={state.kind}
      role="status"
      aria-live="polite"
      title={reason}
    >
      <span className="connection-dot" aria-hidden="true" />
      <span className="connection-label">{labels[state.kind]}</span>
      {reason !== undefined && <span className="connection-reason">{reason}</span>}
    </div>
  );
}
