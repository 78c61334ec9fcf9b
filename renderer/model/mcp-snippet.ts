/**
 * The `.mcp.json` entry that connects an MCP client (Claude Code and others that spawn their
 * servers) to this Vigil: `vigil mcp` over stdio, pointed at this data folder so it finds the
 * running server and the session shows up live here.
 */
export function mcpSnippet(home: string | undefined): string {
  const server: Record<string, unknown> = { command: 'vigil', args: ['mcp'] };
  if (home !== undefined) server['env'] = { VIGIL_HOME: home };
  // Arrays of plain strings stay on one line, as people write them by hand.
  return JSON.stringify({ mcpServers: { vigil: server } }, null, 2).replace(/\[\s*((?:"[^"\n]*",?\s*)+)\]/g, (_match, inner: string) => `[${inner.trim().split(/,\s*/).join(', ')}]`);
}
