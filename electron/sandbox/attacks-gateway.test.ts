import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVigil, spawnVigil } from '../test-support/run-vigil';
import { agentCredentialFor } from '../test-support/agent-credential';
import { makeTempDir } from '../test-support/temp-dir';
import { fakeCredentials, snapshotTree } from './test-support/sandbox-fixture';

/**
 * The same attacks as an agent makes them from outside: through `vigil tool` (a one-shot process)
 * and over MCP against a real `vigil serve`, each a child process whose HOME is a throwaway folder
 * with fake credential stores, with a real VIGIL_HOME holding the server's token.
 */
let base: string;
let remove: () => Promise<void>;
let home: string;
let workspace: string;
let victim: string;
let vigilHome: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-attack-cli-'));
  home = path.join(base, 'home');
  workspace = path.join(base, 'ws');
  victim = path.join(base, 'victim');
  vigilHome = path.join(base, 'vigil');
  for (const [relative, content] of Object.entries(fakeCredentials)) {
    mkdirSync(path.dirname(path.join(home, relative)), { recursive: true });
    writeFileSync(path.join(home, relative), content);
  }
  mkdirSync(workspace);
  mkdirSync(victim);
  writeFileSync(path.join(victim, 'precious.txt'), 'beside the workspace\n');
  env = { HOME: home, VIGIL_HOME: vigilHome, VIGIL_TOKEN: 'TOKEN-IN-THE-ENVIRONMENT-0001' };
});
afterEach(async () => {
  await remove();
});

function outside(): Record<string, string> {
  return {
    ...snapshotTree(home),
    ...Object.fromEntries(Object.entries(snapshotTree(victim)).map(([key, value]) => [`victim/${key}`, value])),
  };
}

describe('vigil tool', () => {
  it('runs an agent command in the sandbox: the home, the folder beside it and the token stay out of reach', async () => {
    mkdirSync(vigilHome, { recursive: true });
    writeFileSync(path.join(vigilHome, 'serve.json'), JSON.stringify({ token: 'SERVE-JSON-TOKEN-0002' }));
    const before = outside();
    // Nothing here makes the policy ask (a script it writes and runs, searches of the home folder): the sandbox alone holds.
    const script =
      "import os, shutil\nfor p in ['~/.ssh', '../victim']:\n    shutil.rmtree(os.path.expanduser(p), ignore_errors=False)\n";
    const command = `printf '${script.replace(/\n/gu, '\\n')}' > wipe.py && python3 wipe.py; grep -rh FAKE ~; find ~ -name id_rsa -exec cat {} +; cat "$(dirname "$PWD")/vigil/serve.json"; env; echo done`;
    const run = await runVigil(['tool', 'terminal', '--args', JSON.stringify({ command }), '--cwd', workspace], {
      env,
    });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { stdout: string; stderr: string };
    expect(result.stdout).toContain('done');
    expect(result.stderr).toMatch(/Read-only file system|Permission denied|No such file/u);
    expect(result.stdout + result.stderr).not.toMatch(/TOKEN-IN-THE-ENVIRONMENT|SERVE-JSON-TOKEN|FAKEAWS|VIGIL_/u);
    expect(outside()).toEqual(before);
  });

  it('says what the checkpoint it took does not cover', async () => {
    writeFileSync(path.join(workspace, 'a.txt'), 'a\n');
    const run = await runVigil(
      ['tool', 'write_file', '--args', JSON.stringify({ path: '.env.example', content: 'KEY=\n' }), '--cwd', workspace],
      { env },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /checkpoint [0-9a-f]{8} of .* taken before the call\.\n.*not covered by the checkpoint, so it cannot be undone: undo will not remove the new \.env\.example/u,
    );
  });

  it('asks about a link made earlier in the command; nobody can answer in a one-shot process, so it is denied', async () => {
    const before = outside();
    const run = await runVigil(
      ['tool', 'terminal', '--args', JSON.stringify({ command: 'ln -s ~ h && rm -rf h/' }), '--cwd', workspace],
      { env },
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('a link made earlier in the command');
    expect(outside()).toEqual(before);
  });
});

/** Starts `vigil serve --port 0` and resolves with what it printed up to its URL. */
async function startServe(
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ stop: () => Promise<void>; output: string; baseUrl: string; token: string; agentToken: string }> {
  const child = spawnVigil(['serve', '--port', '0'], { env: { ...env, ...extraEnv } });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('url: ')) resolve();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', () => reject(new Error(`vigil serve exited:\n${output}`)));
  });
  const url = new URL(/url: (\S+)/u.exec(output)?.[1] ?? '');
  const stop = async (): Promise<void> => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  // The page's credential is in the URL's #token= fragment (and nowhere else); agents connect with their own.
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  return { stop, output, baseUrl: url.origin, token, agentToken: await agentCredentialFor(vigilHome, 'hostile-agent') };
}

describe('MCP against a real vigil serve', () => {
  it('says at start-up that agent commands run in the OS sandbox, and a command can neither read serve.json, find a token, nor reach the server', async () => {
    const server = await startServe();
    try {
      expect(server.output).toContain('Agent commands run in the OS sandbox (bubblewrap).');
      const port = new URL(server.baseUrl).port;
      const transport = new StreamableHTTPClientTransport(
        new URL(`/mcp?cwd=${encodeURIComponent(workspace)}`, server.baseUrl),
        { requestInit: { headers: { authorization: `Bearer ${server.agentToken}` } } },
      );
      const client = new Client({ name: 'hostile-agent', version: '1.0.0' });
      await client.connect(transport);
      const before = outside();
      // Paths computed at run time, so the policy does not ask: the sandbox alone holds.
      const command = [
        'cat "$(dirname "$PWD")/vigil/serve.json"',
        'ls -A "$(dirname "$PWD")/vigil"',
        'env',
        `curl -s -m 5 http://127.0.0.1:${port}/ ; echo " direct=$?"`,
        `curl -s -m 5 --noproxy '' -x "$HTTP_PROXY" http://127.0.0.1:${port}/ws ; echo " proxied=$?"`,
        `curl -s -m 5 --noproxy '' -x "$HTTP_PROXY" http://localhost:${port}/mcp ; echo " localhost=$?"`,
        `printf 'import shutil\\nshutil.rmtree("../victim")\\n' > w.py && python3 w.py`,
      ].join('; ');
      const result = (await client.callTool({ name: 'terminal', arguments: { command } })) as CallToolResult;
      const value = result.structuredContent as { stdout: string; stderr: string };
      const seen = value.stdout + value.stderr;
      // The page's credential is only in the printed URL; serve.json holds the CLI's. Neither leaks.
      const cliToken = (JSON.parse(readFileSync(path.join(vigilHome, 'serve.json'), 'utf8')) as { token: string })
        .token;
      expect(server.token).not.toBe('');
      expect(cliToken).not.toBe('');
      expect(seen).not.toContain(server.token);
      expect(seen).not.toContain(cliToken);
      expect(seen).not.toContain(server.agentToken);
      expect(seen).not.toContain('TOKEN-IN-THE-ENVIRONMENT');
      expect(seen).not.toMatch(/^VIGIL/imu);
      expect(value.stdout).toMatch(/direct=[1-9]/u);
      // The sandbox has no network of its own; through the proxy, this machine is refused.
      expect(value.stdout).toMatch(/Connection blocked by network allowlist\n proxied=/u);
      expect(value.stdout).toMatch(/Connection blocked by network allowlist\n localhost=/u);
      expect(outside()).toEqual(before);
      expect(readFileSync(path.join(vigilHome, 'serve.json'), 'utf8')).not.toContain(server.token);
      await client.close();
    } finally {
      await server.stop();
    }
  });

  it('where the sandbox cannot start, says so at start-up with the command that fixes it', async () => {
    mkdirSync(vigilHome, { recursive: true });
    writeFileSync(
      path.join(vigilHome, 'config.json'),
      JSON.stringify({ policy: { sandbox: { bwrapPath: path.join(base, 'no-bwrap') } } }),
    );
    const server = await startServe();
    try {
      expect(server.output).toMatch(
        /WARNING: agent commands cannot run in the OS sandbox: policy\.sandbox\.bwrapPath .* Every terminal command asks a person until this is fixed: install bubblewrap \(sudo [a-z-]+ install/u,
      );
    } finally {
      await server.stop();
    }
  });
});
