import { useState } from 'react';
import { escapeControls } from '../../shared/text/control-characters';
import { credentialCauses, type ConnectionState } from '../model/connection-state';
import { formatClock } from '../model/format';

/** The way back when the server no longer takes this page's token: where the new address is, and a field to paste it. */
function WayBack({
  home,
  onOpenAddress,
}: {
  readonly home: string | undefined;
  readonly onOpenAddress: (text: string) => { readonly ok: boolean; readonly reason?: string };
}) {
  const [address, setAddress] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const serveInfo = home === undefined ? '$VIGIL_HOME/serve.json' : `${home}/serve.json`;
  return (
    <div className="way-back" data-testid="connection-way-back">
      <ol>
        <li>
          Copy the new address: the line <code>url: http://127.0.0.1:…/#token=…</code> that <code>vigil serve</code>{' '}
          printed in its terminal when it started. That token is the page&rsquo;s own and is stored nowhere else:{' '}
          <code>{escapeControls(serveInfo)}</code> holds only the command line&rsquo;s token, which opens the page but
          cannot approve.
        </li>
        <li>
          Paste it here (it stays in this tab only):
          <form
            className="way-back-form"
            onSubmit={(event) => {
              event.preventDefault();
              const outcome = onOpenAddress(address);
              setProblem(outcome.ok ? undefined : outcome.reason);
            }}
          >
            <input
              className="input mono"
              type="text"
              autoComplete="off"
              spellCheck={false}
              placeholder="http://127.0.0.1:7420/#token=…"
              aria-label="The new address of vigil serve"
              data-testid="connection-address"
              value={address}
              onChange={(event) => setAddress(event.target.value)}
            />
            <button type="submit" className="button button-primary" data-testid="connection-open">
              Open
            </button>
          </form>
          {problem !== undefined && (
            <p className="way-back-problem" role="alert" data-testid="connection-address-problem">
              {problem}
            </p>
          )}
        </li>
        <li className="subtle">
          If vigil serve is not running, start it again: <code>vigil serve</code>.
        </li>
      </ol>
    </div>
  );
}

/**
 * What the page says while it is not connected to Vigil, in full: why, that every action is off and
 * nothing shown is current (as of when the link was lost), and, when only the user can fix it (a
 * refused token after a restart, no token), how to get back in.
 */
export function ConnectionNotice({
  state,
  lostAt,
  home,
  onOpenAddress,
}: {
  readonly state: ConnectionState;
  readonly lostAt: string | undefined;
  readonly home: string | undefined;
  readonly onOpenAddress: (text: string) => { readonly ok: boolean; readonly reason?: string };
}) {
  if (state.kind !== 'reconnecting' && state.kind !== 'disconnected') return null;
  const cause = state.cause;
  const needsAddress = cause !== undefined && credentialCauses.has(cause);
  const title = needsAddress
    ? cause === 'no-token'
      ? 'This page has no access token'
      : cause === 'refused'
        ? 'Vigil refused this page’s access token'
        : 'Vigil does not answer to this address'
    : state.kind === 'reconnecting'
      ? 'Not connected to Vigil: trying again…'
      : 'Not connected to Vigil';
  return (
    <section
      className="connection-notice"
      role="alert"
      data-testid="connection-notice"
      data-cause={cause ?? 'unknown'}
      data-state={state.kind}
    >
      <h2 className="connection-notice-title">{title}</h2>
      <p className="connection-notice-reason" data-testid="connection-notice-reason">
        {escapeControls(state.reason)}.
      </p>
      <p className="connection-notice-stale">
        Every action is off until the link is back, and nothing below is current: it is what Vigil showed
        {lostAt === undefined ? ' before the link was lost' : ` at ${formatClock(lostAt)}`}.
        {state.kind === 'reconnecting'
          ? ` Next try in ${Math.ceil(state.retryInMs / 1000)} s (attempt ${state.attempt}).`
          : ''}
      </p>
      {needsAddress && <WayBack home={home} onOpenAddress={onOpenAddress} />}
      {!needsAddress && state.kind === 'disconnected' && (
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Try again
        </button>
      )}
    </section>
  );
}
