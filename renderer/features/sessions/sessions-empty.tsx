import { ConnectSnippets } from '../../components/connect-snippets';
import type { ConnectTarget } from '../../model/connect-target';
import { EmptyState } from '../../components/empty-state';

/** What a newcomer sees before any agent connected: how to watch a demo, and how to connect an agent. */
export function SessionsEmpty({ target }: { readonly target: ConnectTarget | undefined }) {
  return (
    <EmptyState title="No agent sessions yet" testId="sessions-empty">
      <p>Sessions appear here, live and side by side, as soon as an agent connects to Vigil.</p>
      <ol>
        <li>
          To watch simulated agents at work, run <code>npm run demo</code> in the Vigil checkout.
        </li>
        <li>
          To supervise a real agent, add Vigil to its MCP servers:
          <ConnectSnippets target={target} testId="mcp-snippet" />
          Its file edits, commands and memory writes through Vigil’s tools are then checkpointed, atomic, and shown
          here.
        </li>
        <li>
          Vigil-aware agents speak JSON-RPC at <code>/agent</code> on this server with their own credential (
          <code>vigil connect --credential NAME</code>); see <code>agent-client/README.md</code>.
        </li>
      </ol>
    </EmptyState>
  );
}
