/**
 * What `vigil connect` prints for each MCP client, and what the UI's empty state shows: one
 * source, so the two never disagree. Pure data in, text out (the CLI adds the file handling).
 */

/** The clients `vigil connect` knows. */
export const connectClientIds = ['hermes', 'claude-code', 'gemini-cli', 'cursor', 'vscode', 'codex'] as const;

/** One of the clients `vigil connect` knows. */
export type ConnectClientId = (typeof connectClientIds)[number];

/** How the client reaches Vigil: it spawns `vigil mcp` (stdio), or calls `/mcp` (HTTP). */
export type ConnectTransport = 'stdio' | 'http';

/** How to run the `vigil` CLI: `vigil` or `npx vigil` where that resolves to this install, else by absolute path. */
export interface VigilInvocation {
  readonly command: string;
  readonly args: readonly string[];
}

/** Everything one configuration depends on. */
export interface ConnectInputs {
  readonly client: ConnectClientId;
  readonly transport: ConnectTransport;
  readonly vigil: VigilInvocation;
  /** The data folder when it is not the default one; passed to `vigil mcp` through `env:`, since some clients filter the environment. */
  readonly vigilHome?: string;
  /** Hermes's home (the active profile's); passed through `env:` for Hermes. */
  readonly hermesHome?: string;
  /** Codex's home (CODEX_HOME, else ~/.codex), where its config.toml is. */
  readonly codexHome?: string;
  /** The workspace: `--cwd` for stdio (only when given), `?cwd=` for HTTP (always). */
  readonly cwd?: string;
  /** For HTTP: the server's base URL and the client's agent credential. */
  readonly http?: { readonly baseUrl: string; readonly credential: string };
}

/** Where and how a client keeps its MCP servers. */
export interface ClientProfile {
  readonly name: string;
  readonly format: 'json' | 'yaml' | 'toml';
  /** The keys of the entry inside the file (`mcpServers` → `vigil`). */
  readonly entryPath: readonly [string, string];
  /** The configuration file, said for humans ("`.mcp.json` in the project"). */
  readonly fileHint: string;
  /** What the client keeps of its own tools, and how to route its work through Vigil. */
  readonly ownTools: string;
  /** What to do after the file is changed. */
  readonly reload: string;
}

/** The profile of every client. */
export const clientProfiles: Readonly<Record<ConnectClientId, ClientProfile>> = {
  hermes: {
    name: 'Hermes Agent',
    format: 'yaml',
    entryPath: ['mcp_servers', 'vigil'],
    fileHint: 'config.yaml in the Hermes home (the active profile\u2019s)',
    ownTools:
      'Hermes keeps all of its own tools (file, terminal, memory, web, \u2026). Vigil\u2019s are added beside them as mcp_vigil_read_file, ' +
      'mcp_vigil_write_file, mcp_vigil_patch, mcp_vigil_terminal and mcp_vigil_memory; only their calls are checkpointed and shown in Vigil. ' +
      'To route all file and shell work through Vigil, also add "agent: { disabled_toolsets: [file, terminal] }" to config.yaml. ' +
      'Hermes\u2019s own memory tool keeps writing its memories folder, under the lock Vigil honours; Vigil reports and checkpoints those changes.',
    reload: 'Then run /reload-mcp in Hermes (or restart it) and check with: hermes mcp test vigil',
  },
  'claude-code': {
    name: 'Claude Code',
    format: 'json',
    entryPath: ['mcpServers', 'vigil'],
    fileHint: '.mcp.json in the project',
    ownTools:
      'Claude Code keeps its built-in tools (Read, Edit, Write, Bash, \u2026). Vigil\u2019s are added as mcp__vigil__read_file, ' +
      'mcp__vigil__write_file, mcp__vigil__patch, mcp__vigil__terminal and mcp__vigil__memory; only their calls are checkpointed and shown in Vigil. ' +
      'To make Claude Code use Vigil\u2019s for edits and commands, deny its own in .claude/settings.json: ' +
      '{ "permissions": { "deny": ["Edit", "Write", "MultiEdit", "NotebookEdit", "Bash"] } }.',
    reload: 'Then restart Claude Code in the project and approve the "vigil" server when it asks (/mcp shows it).',
  },
  'gemini-cli': {
    name: 'Gemini CLI',
    format: 'json',
    entryPath: ['mcpServers', 'vigil'],
    fileHint: '.gemini/settings.json in the project',
    ownTools:
      'Gemini CLI keeps its built-in tools (write_file, replace, run_shell_command, \u2026), which Vigil supervises through its hooks ' +
      '(vigil connect gemini-cli --hooks). Vigil\u2019s are added as mcp_vigil_read_file, mcp_vigil_write_file, mcp_vigil_patch, ' +
      'mcp_vigil_terminal and mcp_vigil_memory; their calls are checkpointed, approved in Vigil and shown there. To route edits and commands ' +
      'through Vigil\u2019s tools only, add "tools": { "exclude": ["write_file", "replace", "run_shell_command"] } to the same file.',
    reload:
      'Then start Gemini CLI again in the project (a trusted folder: it reads no project settings otherwise); /mcp lists the server.',
  },
  cursor: {
    name: 'Cursor',
    format: 'json',
    entryPath: ['mcpServers', 'vigil'],
    fileHint: '.cursor/mcp.json in the project',
    ownTools:
      'Cursor keeps its own agent tools (file edits, terminal commands, \u2026); Vigil\u2019s tools are added beside them under the server "vigil", ' +
      'and only their calls are checkpointed and shown in Vigil. Cursor has no setting that turns its own edit tools off: ' +
      'ask for Vigil\u2019s tools in a project rule (.cursor/rules) to route edits and commands through Vigil.',
    reload: 'Then enable "vigil" in Cursor Settings \u2192 MCP (it reloads the file by itself).',
  },
  vscode: {
    name: 'VS Code (Copilot agent mode)',
    format: 'json',
    entryPath: ['servers', 'vigil'],
    fileHint: '.vscode/mcp.json in the project',
    ownTools:
      'VS Code\u2019s agent mode keeps its built-in tools (edit files, run in terminal, \u2026); Vigil\u2019s are added as the tools of the MCP server "vigil", ' +
      'and only their calls are checkpointed and shown in Vigil. To route edits and commands through Vigil, untick the built-in edit and terminal ' +
      'tools in the chat\u2019s tool picker (Configure Tools).',
    reload:
      'Then start the "vigil" server from .vscode/mcp.json (the Start action above it) or run "MCP: List Servers".',
  },
  codex: {
    name: 'Codex CLI',
    format: 'toml',
    entryPath: ['mcp_servers', 'vigil'],
    fileHint: 'config.toml in the Codex home (~/.codex, or CODEX_HOME)',
    ownTools:
      'Codex keeps its own shell and apply_patch tools, which Vigil supervises through its hooks (vigil connect codex --hooks). ' +
      'Vigil\u2019s tools are added as the MCP server "vigil"; their calls are checkpointed, approved in Vigil and shown there. ' +
      'To route edits and commands through Vigil\u2019s tools, ask for them in AGENTS.md.',
    reload: 'Then start a new Codex session (codex mcp list shows the server).',
  },
};

/** The environment variable that holds the agent credential where the client's file is one teams commit. */
export const agentTokenVariable = 'VIGIL_AGENT_TOKEN';

/**
 * How the client's file names the agent credential: a reference to `VIGIL_AGENT_TOKEN` in the
 * client's own syntax for the project files teams commit (Claude Code's `.mcp.json` expands
 * `${VAR}`, Cursor and VS Code `${env:VAR}`); undefined for Hermes, whose file is the user's own
 * (it holds the credential itself, mode 0600).
 */
export function credentialReference(client: ConnectClientId): string | undefined {
  switch (client) {
    case 'claude-code':
    case 'gemini-cli':
      return `\${${agentTokenVariable}}`;
    case 'cursor':
    case 'vscode':
      return `\${env:${agentTokenVariable}}`;
    case 'codex':
      return `$${agentTokenVariable}`;
    case 'hermes':
      return undefined;
  }
}

/** The arguments of `vigil mcp` for a client. */
function mcpArgs(inputs: ConnectInputs): string[] {
  const args = [...inputs.vigil.args, 'mcp'];
  if (inputs.client === 'hermes') args.push('--agent', 'hermes');
  if (inputs.cwd !== undefined) args.push('--cwd', inputs.cwd);
  return args;
}

/** The `/mcp` URL with `?cwd=` (Hermes and others send no MCP roots) and, for Hermes, `?agent=hermes`. */
export function mcpUrl(baseUrl: string, cwd: string, client: ConnectClientId): string {
  const origin = baseUrl.replace(/[?#].*$/, '').replace(/\/+$/, '');
  // Slashes may stay as they are in a query: the path stays readable.
  return `${origin}/mcp?cwd=${encodeURIComponent(cwd).replace(/%2F/gi, '/')}${client === 'hermes' ? '&agent=hermes' : ''}`;
}

/** The client's configuration entry for Vigil (the value under `mcpServers.vigil` or its equivalent). */
export function connectEntry(inputs: ConnectInputs): Record<string, unknown> {
  if (inputs.transport === 'http') {
    if (inputs.http === undefined || inputs.cwd === undefined)
      throw new Error('An HTTP configuration needs the server, a credential and a cwd.');
    const url = mcpUrl(inputs.http.baseUrl, inputs.cwd, inputs.client);
    // Codex reads the bearer token from the environment variable it names.
    if (inputs.client === 'codex') return { url, bearer_token_env_var: agentTokenVariable };
    const headers = { Authorization: `Bearer ${credentialReference(inputs.client) ?? inputs.http.credential}` };
    // Gemini CLI's `url` is SSE; `httpUrl` is streamable HTTP, which /mcp speaks.
    if (inputs.client === 'gemini-cli') return { httpUrl: url, headers };
    return inputs.client === 'hermes' || inputs.client === 'cursor' ? { url, headers } : { type: 'http', url, headers };
  }
  const env: Record<string, string> = {};
  if (inputs.vigilHome !== undefined) env['VIGIL_HOME'] = inputs.vigilHome;
  if (inputs.client === 'hermes' && inputs.hermesHome !== undefined) env['HERMES_HOME'] = inputs.hermesHome;
  const entry = {
    command: inputs.vigil.command,
    args: mcpArgs(inputs),
    ...(Object.keys(env).length === 0 ? {} : { env }),
  };
  return inputs.client === 'vscode' ? { type: 'stdio', ...entry } : entry;
}

/** A JSON document with arrays of plain strings on one line, as people write them by hand. */
function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /\[\s*((?:"(?:[^"\\\n]|\\.)*",?\s*)+)\]/g,
    (_match, inner: string) =>
      `[${inner
        .trim()
        .split(/",\s*"/)
        .join('", "')}]`,
  );
}

/** A YAML document of nested mappings, strings and string lists (strings double-quoted, JSON-style, which YAML reads as is). */
function yamlText(value: Readonly<Record<string, unknown>>, indent = ''): string {
  const lines: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (Array.isArray(item)) lines.push(`${indent}${key}: [${item.map((part) => JSON.stringify(part)).join(', ')}]`);
    else if (typeof item === 'object' && item !== null)
      lines.push(`${indent}${key}:`, yamlText(item as Record<string, unknown>, `${indent}  `));
    else lines.push(`${indent}${key}: ${JSON.stringify(item)}`);
  }
  return lines.join('\n');
}

/** A TOML table of strings, string lists and one level of inline tables (strings JSON-quoted, which TOML reads as basic strings). */
function tomlText(header: string, value: Readonly<Record<string, unknown>>): string {
  const item = (part: unknown): string => {
    if (Array.isArray(part)) return `[${part.map(item).join(', ')}]`;
    if (typeof part === 'object' && part !== null)
      return `{ ${Object.entries(part)
        .map(([key, inner]) => `${key} = ${item(inner)}`)
        .join(', ')} }`;
    return JSON.stringify(part);
  };
  return [`[${header}]`, ...Object.entries(value).map(([key, part]) => `${key} = ${item(part)}`)].join('\n');
}

/** The snippet to paste: the entry inside the keys the client's file keeps it under. */
export function connectSnippet(inputs: ConnectInputs): string {
  const profile = clientProfiles[inputs.client];
  const [outer, inner] = profile.entryPath;
  if (profile.format === 'toml') return tomlText(`${outer}.${inner}`, connectEntry(inputs));
  const document = { [outer]: { [inner]: connectEntry(inputs) } };
  return profile.format === 'yaml' ? yamlText(document) : jsonText(document);
}
