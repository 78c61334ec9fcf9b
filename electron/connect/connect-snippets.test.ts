import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  connectClientIds,
  connectEntry,
  connectSnippet,
  type ConnectInputs,
} from '../../shared/connect/connect-config';

/** The placeholder paths the README uses. */
const readmeInputs = {
  vigil: { command: '/usr/bin/node', args: ['/path/to/vigil/out/main/cli.js'] },
  vigilHome: '/home/you/.vigil',
  hermesHome: '/home/you/.hermes',
} as const;

describe('connect snippets', () => {
  it('are valid JSON or YAML for every client and transport, naming the CLI by absolute path and carrying ?cwd= over HTTP', () => {
    // Codex's TOML is read back by Codex itself in connect-codex.test.ts.
    for (const client of connectClientIds.filter((id) => id !== 'codex')) {
      const stdio = connectSnippet({ client, transport: 'stdio', ...readmeInputs, cwd: '/w/a b' });
      const http = connectSnippet({
        client,
        transport: 'http',
        ...readmeInputs,
        cwd: '/w/a b',
        http: { baseUrl: 'http://127.0.0.1:7420/', credential: 'vigil_agent_x' },
      });
      const parse = (text: string): unknown => (client === 'hermes' ? parseYaml(text) : JSON.parse(text));
      const outer = client === 'hermes' ? 'mcp_servers' : client === 'vscode' ? 'servers' : 'mcpServers';
      const stdioEntry = (
        parse(stdio) as Record<string, Record<string, { command: string; args: string[]; env: Record<string, string> }>>
      )[outer]?.['vigil'];
      expect(stdioEntry?.command, client).toBe('/usr/bin/node');
      expect(stdioEntry?.args, client).toEqual([
        '/path/to/vigil/out/main/cli.js',
        'mcp',
        ...(client === 'hermes' ? ['--agent', 'hermes'] : []),
        '--cwd',
        '/w/a b',
      ]);
      expect(stdioEntry?.env['VIGIL_HOME'], client).toBe('/home/you/.vigil');
      expect(stdioEntry?.env['HERMES_HOME'], client).toBe(client === 'hermes' ? '/home/you/.hermes' : undefined);
      const httpEntry = (
        parse(http) as Record<
          string,
          Record<string, { url?: string; httpUrl?: string; headers: Record<string, string> }>
        >
      )[outer]?.['vigil'];
      // Gemini CLI reads streamable HTTP from httpUrl (its url is SSE).
      expect(client === 'gemini-cli' ? httpEntry?.httpUrl : httpEntry?.url, client).toBe(
        `http://127.0.0.1:7420/mcp?cwd=/w/a%20b${client === 'hermes' ? '&agent=hermes' : ''}`,
      );
      // Only Hermes's file (the user's own, mode 0600) holds the secret; the project files teams commit refer to a variable.
      expect(httpEntry?.headers['Authorization'], client).toBe(
        {
          hermes: 'Bearer vigil_agent_x',
          'claude-code': 'Bearer ${VIGIL_AGENT_TOKEN}',
          'gemini-cli': 'Bearer ${VIGIL_AGENT_TOKEN}',
        }[client as string] ?? 'Bearer ${env:VIGIL_AGENT_TOKEN}',
      );
      // The default data folder is found without being told: no env: at all (Hermes still gets HERMES_HOME).
      const plain = connectEntry({ client, transport: 'stdio', ...readmeInputs, vigilHome: undefined });
      if (client !== 'hermes') expect(plain, client).not.toHaveProperty('env');
    }
  });

  it('in the README are exactly what vigil connect prints for the same paths', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const cases: ConnectInputs[] = [
      { client: 'claude-code', transport: 'stdio', ...readmeInputs },
      {
        client: 'claude-code',
        transport: 'http',
        ...readmeInputs,
        cwd: '/home/you/project',
        http: { baseUrl: 'http://127.0.0.1:7420/', credential: 'vigil_agent_…' },
      },
      { client: 'hermes', transport: 'stdio', ...readmeInputs },
    ];
    for (const inputs of cases)
      expect(readme, `${inputs.client} ${inputs.transport}`).toContain(`\n${connectSnippet(inputs)}\n\`\`\``);
  });
});
