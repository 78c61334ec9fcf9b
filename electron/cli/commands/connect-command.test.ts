import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { applyConfigChange, planConfigChange } from '../../connect/config-change';
import { startServeFixture, type ServeFixture } from '../../gateway/test-support/gateway-fixture';
import { AgentCredentialStore } from '../../server/agent-credentials';
import { runVigil, type VigilRun } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';

let temp: { dir: string; remove: () => Promise<void> };
let fixture: ServeFixture | undefined;
const cleanups: (() => Promise<unknown>)[] = [];

beforeEach(async () => {
  temp = await makeTempDir('vigil-connect-');
  await mkdir(path.join(temp.dir, 'home'));
  await mkdir(path.join(temp.dir, 'project'));
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await fixture?.close();
  fixture = undefined;
  await temp.remove();
});

const userHome = (): string => path.join(temp.dir, 'home');
const project = (): string => path.join(temp.dir, 'project');

/** Runs `vigil connect …` with a throwaway HOME, its own VIGIL_HOME and no HERMES_HOME. */
function connect(args: readonly string[], vigilHome = path.join(temp.dir, 'vigil')): Promise<VigilRun> {
  return runVigil(['connect', ...args], {
    cwd: project(),
    env: { HOME: userHome(), VIGIL_HOME: vigilHome, HERMES_HOME: '' },
  });
}

/** The configuration a run printed: the block between the "Configuration for" line and the next blank line. */
function printedSnippet(stdout: string): string {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => line.startsWith('Configuration for')) + 2;
  const end = lines.findIndex((line, index) => index >= start && line === '');
  return lines.slice(start, end).join('\n');
}

/** Hermes's environment for an MCP server: only these variables pass, plus the entry's own `env:`. */
function hermesFilteredEnv(entryEnv: Record<string, string>): Record<string, string> {
  const kept = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TERM', 'SHELL', 'TMPDIR'];
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && (kept.includes(name) || name.startsWith('XDG_'))) environment[name] = value;
  }
  return { ...environment, HOME: userHome(), ...entryEnv };
}

describe('vigil connect hermes', () => {
  it("prints a stdio entry that, started the way Hermes starts MCP servers (filtered environment), writes the active profile's memory folder", async () => {
    const hermes = path.join(userHome(), '.hermes');
    await mkdir(path.join(hermes, 'profiles', 'work', 'memories'), { recursive: true });
    await writeFile(path.join(hermes, 'active_profile'), 'work\n');
    const run = await connect(['hermes']);
    expect(run.code, run.stderr).toBe(0);
    const config = parseYaml(printedSnippet(run.stdout)) as {
      mcp_servers: { vigil: { command: string; args: string[]; env: Record<string, string> } };
    };
    const entry = config.mcp_servers.vigil;
    expect(path.isAbsolute(entry.command)).toBe(true);
    expect(entry.args).toContain('--agent');
    expect(entry.env).toEqual({
      VIGIL_HOME: path.join(temp.dir, 'vigil'),
      HERMES_HOME: path.join(hermes, 'profiles', 'work'),
    });
    expect(run.stdout).toContain('keeps all of its own tools');

    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: hermesFilteredEnv(entry.env),
      cwd: project(),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'hermes-agent', version: '1' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const added = (await client.callTool({
      name: 'memory',
      arguments: { action: 'add', target: 'memory', content: 'The deploy key lives in the vault.' },
    })) as CallToolResult;
    expect(added.isError, JSON.stringify(added.content)).not.toBe(true);
    expect(await readFile(path.join(hermes, 'profiles', 'work', 'memories', 'MEMORY.md'), 'utf8')).toContain(
      'The deploy key lives in the vault.',
    );
    await expect(stat(path.join(hermes, 'memories', 'MEMORY.md'))).rejects.toThrow();
  });

  it('--write merges the entry into config.yaml keeping comments and other servers, after showing the diff', async () => {
    const config = path.join(userHome(), '.hermes', 'config.yaml');
    await mkdir(path.dirname(config), { recursive: true });
    await writeFile(
      config,
      '# my Hermes\nmodel: gpt-x # keep me\nmcp_servers:\n  time:\n    command: "uvx"\n    args: ["mcp-server-time"]\n',
    );
    const run = await connect(['hermes', '--write']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`The change to ${config}:`);
    expect(run.stdout).toMatch(/^\+ {2}vigil:$/m);
    const written = await readFile(config, 'utf8');
    expect(
      written.startsWith(
        '# my Hermes\nmodel: gpt-x # keep me\nmcp_servers:\n  time:\n    command: "uvx"\n    args: ["mcp-server-time"]\n  vigil:\n',
      ),
    ).toBe(true);
    expect(written).toContain(printedSnippet(run.stdout).split('\n').slice(1).join('\n'));
    const again = await connect(['hermes', '--write']);
    expect(again.stdout).toContain('already holds this entry; nothing was written');
  });

  it('refuses a config.yaml it cannot parse, shows the parse error and leaves the file byte-identical', async () => {
    const config = path.join(userHome(), '.hermes', 'config.yaml');
    await mkdir(path.dirname(config), { recursive: true });
    const broken = 'model: [gpt\nmcp_servers:\n  a: 1\n';
    await writeFile(config, broken);
    const run = await connect(['hermes', '--write']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/is not valid YAML, so nothing was written.*line \d+, column \d+/s);
    expect(await readFile(config, 'utf8')).toBe(broken);
  });
});

describe('vigil connect over HTTP', () => {
  it('writes a .mcp.json that holds no secret (it refers to $VIGIL_AGENT_TOKEN) and whose URL carries ?cwd=; the stable credential works with a real MCP client and is revocable', async () => {
    fixture = await startServeFixture();
    const run = await connect(['claude-code', '--http', '--write'], fixture.home);
    expect(run.code, run.stderr).toBe(0);
    const file = path.join(project(), '.mcp.json');
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).not.toBe(0o600);
    expect(run.stdout).toContain('export VIGIL_AGENT_TOKEN="$(vigil connect --credential claude-code)"');
    const entry = (
      JSON.parse(await readFile(file, 'utf8')) as {
        mcpServers: { vigil: { type: string; url: string; headers: { Authorization: string } } };
      }
    ).mcpServers.vigil;
    expect(entry.type).toBe('http');
    expect(entry.url).toBe(`http://127.0.0.1:${fixture.running.http.port}/mcp?cwd=${project()}`);
    expect(entry.headers.Authorization).toBe('Bearer ${VIGIL_AGENT_TOKEN}');
    const secret = (await connect(['--credential', 'claude-code'], fixture.home)).stdout.trim();
    expect(secret).toMatch(/^vigil_agent_/);
    const fileText = await readFile(file, 'utf8');
    expect(fileText).not.toContain(secret);
    expect(fileText).not.toContain(fixture.uiToken);
    const authorization = `Bearer ${secret}`;

    const transport = new StreamableHTTPClientTransport(new URL(entry.url), {
      requestInit: { headers: { authorization } },
    });
    const client = new Client({ name: 'claude-code', version: '1' });
    await client.connect(transport);
    const written = (await client.callTool({
      name: 'write_file',
      arguments: { path: 'from-claude.txt', content: 'hi' },
    })) as CallToolResult;
    expect(written.isError).not.toBe(true);
    expect(await readFile(path.join(project(), 'from-claude.txt'), 'utf8')).toBe('hi');
    await client.close();

    const again = await connect(['claude-code', '--http', '--write'], fixture.home);
    expect(again.stdout).toContain('already holds this entry');
    const revoked = await connect(['--revoke', 'claude-code'], fixture.home);
    expect(revoked.code).toBe(0);
    const refused = await fetch(entry.url, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    const renewed = await connect(['--credential', 'claude-code'], fixture.home);
    expect(renewed.stdout.trim()).not.toBe(secret);
  });

  it('--credential prints one stable credential for a name; --list names them; --revoke of an unknown name fails', async () => {
    const first = await connect(['--credential', 'my-agent']);
    const second = await connect(['--credential', 'my-agent']);
    expect(first.stdout.trim()).toMatch(/^vigil_agent_[A-Za-z0-9_-]{40,}$/);
    expect(second.stdout).toBe(first.stdout);
    expect((await connect(['--list'])).stdout).toMatch(/^my-agent {2}\(made /m);
    const unknown = await connect(['--revoke', 'nobody']);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      expect.stringContaining('no agent credential "nobody"') as unknown,
    ]);
    expect((await connect(['cursor', '--http', '--stdio'])).code).toBe(2);
    expect((await connect(['emacs'])).code).toBe(2);
  });
});

describe('vigil connect --write on JSON files', () => {
  it('keeps the other servers of .cursor/mcp.json and prints the stdio entry with the CLI by absolute path', async () => {
    const file = path.join(project(), '.cursor', 'mcp.json');
    await mkdir(path.dirname(file));
    await writeFile(file, '{\n    "mcpServers": {\n        "other": { "command": "x" }\n    }\n}\n');
    const run = await connect(['cursor', '--write']);
    expect(run.code, run.stderr).toBe(0);
    const config = JSON.parse(await readFile(file, 'utf8')) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    expect(Object.keys(config.mcpServers)).toEqual(['other', 'vigil']);
    expect(path.isAbsolute(config.mcpServers['vigil']?.command ?? '')).toBe(true);
    expect(await readFile(file, 'utf8')).toMatch(/^ {4}"mcpServers"/m);
  });

  it('refuses an unparseable .mcp.json and a .vscode/mcp.json with comments, leaving both byte-identical', async () => {
    const broken = '{ "mcpServers": { "a": 1, } ';
    await writeFile(path.join(project(), '.mcp.json'), broken);
    const run = await connect(['claude-code', '--write']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/is not valid JSON, so nothing was written.*line 1, column/s);
    expect(await readFile(path.join(project(), '.mcp.json'), 'utf8')).toBe(broken);

    const commented = '{\n  // my servers\n  "servers": {}\n}\n';
    await mkdir(path.join(project(), '.vscode'));
    await writeFile(path.join(project(), '.vscode', 'mcp.json'), commented);
    const vscode = await connect(['vscode', '--write']);
    expect(vscode.code).toBe(1);
    expect(vscode.stderr).toContain('comments, which a rewrite would drop');
    expect(await readFile(path.join(project(), '.vscode', 'mcp.json'), 'utf8')).toBe(commented);
  });

  it('refuses to write a file that changed after it was read, and says to run again', async () => {
    const file = path.join(project(), '.mcp.json');
    await writeFile(file, '{ "mcpServers": {} }\n');
    const change = await planConfigChange(file, {
      format: 'json',
      path: ['mcpServers', 'vigil'],
      entry: { command: '/usr/bin/node' },
      snippet: '',
      holdsCredential: false,
    });
    await writeFile(file, '{ "mcpServers": { "edited": { "command": "meanwhile" } } }\n');
    await expect(applyConfigChange(change, 'vigil connect claude-code --write')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(
        'changed since it was read, so nothing was written. Run "vigil connect claude-code --write" again',
      ) as unknown,
    });
    expect(await readFile(file, 'utf8')).toBe('{ "mcpServers": { "edited": { "command": "meanwhile" } } }\n');
    const store = new AgentCredentialStore(path.join(temp.dir, 'vigil', 'agent-credentials.json'));
    expect(await store.list()).toEqual([]);
  });
});
