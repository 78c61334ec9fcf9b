import { CopySnippet } from '../../components/copy-snippet';
import { EmptyState } from '../../components/empty-state';
import { mcpSnippet } from '../../model/mcp-snippet';

/** What a newcomer sees before any agent connected: how to watch a demo, and how to connect an agent. */
export function SessionsEmpty({ home }: { readonly home: string | undefined }) {
  return (
    <EmptyState title="No agent sessions yet" testId="sessions-empty">
      <p>Sessions appear here, live and side by side, as soon as an agent connects to Vigil.</p>
      <ol>
        <li>
          To watch simulated agents at work, run <code>npm run demo</code> in the Vigil checkout.
        </li>
        <li>
          To supervise a real agent, add Vigil to its MCP servers, for example in the project’s <code>.mcp.json</code> for Claude Code:
          <CopySnippet label=".mcp.json" text={mcpSnippet(home)} testId="mcp-snippet" />
          Its file edits, commands and memory writes then go through Vigil: checkpointed, atomic, and shown here.
        </li>
        <li>
          Vigil-aware agents speak JSON-RPC at <code>/agent</code> on this server; see <code>agent-client/README.md</code>.
        </li>
      </ol>
    </EmptyState>
  );
}
