import { CopySnippet } from '../../components/copy-snippet';
import { EmptyState } from '../../components/empty-state';
import { mcpSnippet } from '../../model/mcp-snippet';

/** What a newcomer sees before any directory was checkpointed. */
export function TimelineEmpty({ home }: { readonly home: string | undefined }) {
  return (
    <EmptyState title="No checkpoints yet" testId="timeline-empty">
      <p>
        Vigil checkpoints a directory before an agent’s first change in each turn. Every checkpoint of a directory shows here, from every session, with what changed
        and one-click restore.
      </p>
      <ol>
        <li>
          Watch it happen: run <code>npm run demo</code> in the Vigil checkout.
        </li>
        <li>
          Take one by hand: <code>vigil checkpoint DIR</code>
          {home === undefined ? '' : ' (with the same VIGIL_HOME as this window)'}.
        </li>
        <li>
          Connect an agent through Vigil:
          <CopySnippet label=".mcp.json" text={mcpSnippet(home)} />
        </li>
      </ol>
    </EmptyState>
  );
}
