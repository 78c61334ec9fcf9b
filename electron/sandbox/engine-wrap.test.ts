import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runScriptInFreshProcess } from '../test-support/run-vigil';

/**
 * What sandbox-runtime.ts makes of the engine's wrapped command line: on Linux the shell that runs
 * it execs bubblewrap in place (`exec bwrap …`) instead of forking it and waiting. That is sound only
 * while the engine's Linux wrap is one simple command, which the engine's text is pinned to here.
 */
const engineDist = path.join(repoRoot, 'node_modules/@anthropic-ai/sandbox-runtime/dist');
const isLinux = process.platform === 'linux';
let dir = '';

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-engine-wrap-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const moduleUrl = (file: string): string => pathToFileURL(path.join(repoRoot, 'electron/sandbox', file)).href;

describe('the engine wrap run in place of its shell', () => {
  it('is the engine version whose Linux wrap is one simple command', async () => {
    const { version } = JSON.parse(await readFile(path.join(engineDist, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    const linux = await readFile(path.join(engineDist, 'sandbox/linux-sandbox-utils.js'), 'utf8');
    // On a new engine version: check that renderBwrapInvocation still returns one simple command
    // (bubblewrap, or a /bin/sh that execs it) and that wrapCommandWithSandboxLinux returns it as is.
    expect(version).toBe('0.0.83');
    expect(linux).toContain(
      'The result stays a simple command,\n * so a prefix (`exec`, `timeout 30`) or a suffix (`&& next`) still composes.',
    );
    expect(linux).toContain('const inline = quote([bwrapBinary, ...bwrapArgs]);');
    expect(linux).toContain("const viaArgsFile = quote([\n        '/bin/sh',\n        '-c',");
    expect(linux).toContain('const wrappedCommand = renderBwrapInvocation(bwrapPath ?? ');
    expect(linux).toContain('        return wrappedCommand;\n');
  });

  it.runIf(isLinux)('replaces the shell with bubblewrap, and the command still runs sandboxed', async () => {
    const folder = path.join(dir, 'engine');
    const writable = path.join(dir, 'work');
    await Promise.all([mkdir(folder), mkdir(writable)]);
    const started = path.join(writable, 'started');
    const command = `touch ${started} && ! touch ${dir}/outside && sleep 30`;
    const result = await runScriptInFreshProcess(
      dir,
      `
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
const runtime = await import(${JSON.stringify(moduleUrl('sandbox-runtime.ts'))});
runtime.acquireEngine();
const wrapped: string = await runtime.wrapInSandbox({
  command: ${JSON.stringify(command)},
  directory: ${JSON.stringify(folder)},
  profile: { denyRead: [], allowWrite: [${JSON.stringify(writable)}], denyWrite: [], temp: ${JSON.stringify(writable)} },
  network: { deniedDomains: [] },
});
const child = spawn('/bin/sh', ['-c', wrapped], { stdio: 'ignore' });
while (!existsSync(${JSON.stringify(started)})) await new Promise((resolve) => setTimeout(resolve, 20));
const program = readFileSync('/proc/' + child.pid + '/comm', 'utf8').trim();
child.kill('SIGKILL');
await new Promise((resolve) => child.once('exit', resolve));
runtime.commandEnded();
await runtime.releaseEngine();
console.log(JSON.stringify({ program }));
`,
    );
    // Before, the shell forked bubblewrap and waited for it: the spawned process stayed \`sh\`.
    expect(result).toEqual({ program: 'bwrap' });
    await expect(readFile(path.join(dir, 'outside'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
