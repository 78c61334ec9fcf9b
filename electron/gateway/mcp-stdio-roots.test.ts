import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { childEnv, repoRoot, vigilEntry } from '../test-support/run-vigil';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A real `vigil mcp` (embedded core) in a throwaway HOME, started in `cwd`, whose client answers roots/list with `roots`. */
async function bridgeIn(cwd: string, home: string, roots?: readonly string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', vigilEntry, 'mcp', '--cwd', cwd],
    cwd: repoRoot,
    env: childEnv({ HOME: home, VIGIL_HOME: path.join(home, '.vigil') }) as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'roots-client', version: '1.0.0' }, { capabilities: roots ? { roots: {} } : {} });
  if (roots !== undefined)
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.map((uri) => ({ uri })) }));
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Every call a session rooted at no project folder makes is refused with the way to start in one; nothing is written. */
async function expectEveryCallRefused(client: Client, home: string): Promise<void> {
  const before = (await readdir(home)).sort();
  const calls = [
    { name: 'write_file', arguments: { path: path.join(home, '.bashrc'), content: 'echo pwned\n' } },
    { name: 'terminal', arguments: { command: 'echo pwned >> .bashrc' } },
  ];
  for (const call of calls) {
    const result = (await client.callTool(call)) as CallToolResult;
    expect(result.isError, call.name).toBe(true);
    expect(text(result), call.name).toMatch(/Start in a project folder instead/u);
  }
  expect((await readdir(home)).sort()).toEqual(before);
}

describe('vigil mcp where no project folder is given', () => {
  it('started in the home folder by a client that sends no roots, refuses every file and terminal call, saying how to start in a project', async () => {
    const temp = await makeTempDir('vigil-mcp-home-');
    cleanups.push(() => temp.remove());
    const home = path.join(temp.dir, 'home');
    await mkdir(home);
    await expectEveryCallRefused(await bridgeIn(home, home), home);
  });

  it('refuses a client that answers roots/list with file:///, even when started in a project', async () => {
    const temp = await makeTempDir('vigil-mcp-slash-');
    cleanups.push(() => temp.remove());
    const home = path.join(temp.dir, 'home');
    const project = path.join(temp.dir, 'project');
    await mkdir(home);
    await mkdir(project);
    await expectEveryCallRefused(await bridgeIn(project, home, ['file:///']), home);
  });
});
