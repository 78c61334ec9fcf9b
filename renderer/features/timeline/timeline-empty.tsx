import { ConnectSnippets } from '../../components/connect-snippets';
import type { ConnectTarget } from '../../model/connect-target';
import { EmptyState } from '../../components/empty-state';

/** What a newcomer sees before any directory was checkpointed. */
export function TimelineEmpty({ target }: { readonly target: ConnectTarget | undefined }) {
  return (
    <EmptyState title="No checkpoints yet" testId="timeline-empty">
      <p>
        Vigil checkpoints a directory before an agent’s first change in each turn. Every checkpoint of a directory shows
        here, from every session, with what changed and one-click restore.
      </p>
      <ol>
        <li>
          Watch it happen: run <code>npm run demo</code> in the Vigil checkout.
        </li>
        <li>
          Take one by hand: <code>vigil checkpoint DIR</code>
          {target === undefined ? '' : ' (with the same VIGIL_HOME as this window)'}.
        </li>
        <li>
          Connect an agent through Vigil:
          <ConnectSnippets target={target} />
        </li>
      </ol>
    </EmptyState>
  );
}
