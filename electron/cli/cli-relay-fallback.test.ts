import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVigil, spawnVigil } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { makeWorkspace, startResidentCore, type Workspace } from './test-support/relay-fixture';

/** A pid no process has (above the kernel's default pid_max of 4,194,304). */
const deadPid = 4_194_305;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function writeServeJson(
  workspace: Workspace,
  info: { readonly pid: number; readonly port: number; readonly token: string },
): Promise<void> {
  await mkdir(workspace.home, { recursive: true });
  const url = `http://127.0.0.1:${info.port}/?token=${info.token}`;
  await writeFile(
    path.join(workspace.home, 'serve.json'),
    JSON.stringify({ ...info, url, version: '0.1.0', startedAt: new Date().toISOString() }),
    { mode: 0o600 },
  );
}

/** Resolves once `vigil serve` prints its URL (it is then listening and serve.json is written). */
function serving(server: ChildProcessWithoutNullStreams): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let output = '';
    server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (/^url: /m.test(output)) resolve();
    });
    server.once('exit', (code) => reject(new Error(`vigil serve exited (${String(code)}): ${output}`)));
  });
}

describe('a serve.json that leads to no usable core never blocks a command', () => {
  let remove: () => Promise<void>;
  let base: string;
  const servers: Server[] = [];

  beforeEach(async () => {
    const temp = await makeTempDir('vigil-fallback-');
    remove = temp.remove;
    base = temp.dir;
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
    await remove();
  });

  it(
    'works in-process with one line saying why: dead pid, refused port, wrong token, a port that is not Vigil',
    { timeout: 300_000 },
    async () => {
      const [dead, refused, forged, foreign] = await Promise.all(
        ['dead', 'refused', 'forged', 'foreign'].map((name) => makeWorkspace(path.join(base, name))),
      );
      if (dead === undefined || refused === undefined || forged === undefined || foreign === undefined)
        throw new Error('no workspace');
      await writeServeJson(dead, { pid: deadPid, port: 9, token: 'stale' });
      const closed = createServer();
      const closedPort = await listen(closed);
      await new Promise((resolve) => closed.close(resolve));
      await writeServeJson(refused, { pid: process.pid, port: closedPort, token: 'any' });
      // A real resident core on another data folder: its port is Vigil's, but serve.json's token is not its token.
      const elsewhere = await makeWorkspace(path.join(base, 'elsewhere'));
      const resident = await startResidentCore(elsewhere.home, elsewhere.env);
      try {
        if (resident.gateway.kind !== 'serving') throw new Error('no gateway');
        await writeServeJson(forged, { pid: process.pid, port: resident.gateway.port, token: 'forged-token' });
        const notVigil = createServer((_request, response) => response.end('hello from something else\n'));
        servers.push(notVigil);
        await writeServeJson(foreign, { pid: process.pid, port: await listen(notVigil), token: 'any' });

        const expectations: ReadonlyArray<readonly [Workspace, RegExp]> = [
          [
            dead,
            /^vigil: not relaying to a Vigil core: .*serve\.json names pid 4194305, which is not running .*; working in-process\.\n$/,
          ],
          [
            refused,
            /^vigil: could not reach the Vigil core \(pid \d+\): http:\/\/127\.0\.0\.1:\d+ refused the connection \(ECONNREFUSED\); working in-process\.\n$/,
          ],
          [
            forged,
            /^vigil: could not reach the Vigil core \(pid \d+\): the core at http:\/\/127\.0\.0\.1:\d+ refused serve\.json's token; working in-process\.\n$/,
          ],
          [
            foreign,
            /^vigil: could not reach the Vigil core \(pid \d+\): http:\/\/127\.0\.0\.1:\d+ is not a Vigil core \(HTTP 200\); working in-process\.\n$/,
          ],
        ];
        const runs = await Promise.all(
          expectations.map(([workspace]) => runVigil(['checkpoint', workspace.project], { env: workspace.env })),
        );
        runs.forEach((run, index) => {
          const [workspace, stderr] = expectations[index] ?? [];
          expect(run.stderr).toMatch(stderr ?? /never/);
          expect(run.code).toBe(0);
          expect(run.stdout).toBe(
            `Checkpoint ${/[0-9a-f]{8}/.exec(run.stdout)?.[0] ?? ''} of ${workspace?.project ?? ''}: manual checkpoint (2 files, +3/-0).\n`,
          );
        });
        // Nothing reached the core whose port was used with a forged token.
        expect(resident.calls).toEqual([]);
      } finally {
        await resident.stop();
      }
    },
  );

  it(
    'works in-process when the core is stopped (Ctrl-Z), and the core, once resumed, never runs the call too',
    { timeout: 300_000 },
    async () => {
      const workspace = await makeWorkspace(path.join(base, 'stopped'));
      const server = spawnVigil(['serve', '--port', '0'], { env: workspace.env });
      try {
        await serving(server);
        server.kill('SIGSTOP');
        // The kernel still accepts the connection and buffers the request's head; the core cannot answer.
        const run = await runVigil(['checkpoint', workspace.project], { env: workspace.env });
        // A change since: were the call to run in the core too, it would make a second checkpoint.
        await writeFile(path.join(workspace.project, 'after.txt'), 'written after the in-process checkpoint\n');
        server.kill('SIGCONT');
        expect(run.stderr).toMatch(
          /^vigil: could not reach the Vigil core \(pid \d+\): http:\/\/127\.0\.0\.1:\d+ accepted the connection but did not ask for the call within 10000 ms .*so the call was never sent; working in-process\.\n$/,
        );
        expect(run.code).toBe(0);
        // Resumed, the core reads the buffered head, but the call's body was never sent: one checkpoint, the in-process one.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const list = await runVigil(['checkpoints', 'list', workspace.project, '--json'], { env: workspace.env });
        expect(list.stderr).toBe('');
        expect((JSON.parse(list.stdout) as { total: number }).total).toBe(1);
      } finally {
        server.kill('SIGCONT');
        server.kill('SIGKILL');
      }
    },
  );

  it(
    'fails with status 1 and a clear message, never a hang, when the core dies during a relayed call',
    { timeout: 300_000 },
    async () => {
      const workspace = await makeWorkspace(path.join(base, 'dying'));
      await mkdir(workspace.home, { recursive: true });
      // Every write_file waits for a human: the call is in the core, waiting, when the core is killed.
      await writeFile(
        path.join(workspace.home, 'config.json'),
        JSON.stringify({ policy: { rules: [{ effect: 'ask', tool: 'write_file' }] } }),
      );
      const server = spawnVigil(['serve', '--port', '0'], { env: workspace.env });
      try {
        await serving(server);
        const tool = spawnVigil(
          ['tool', 'write_file', '--args', '{"path": "late.md", "content": "never\\n"}', '--cwd', workspace.project],
          { env: workspace.env },
        );
        let stderr = '';
        let stdout = '';
        tool.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
        const waiting = new Promise<void>((resolve) => {
          tool.stderr.setEncoding('utf8').on('data', (chunk: string) => {
            stderr += chunk;
            if (stderr.includes("waiting for a decision in Vigil's UI")) resolve();
          });
        });
        const exited = new Promise<number | null>((resolve) => tool.once('close', (code) => resolve(code)));
        await waiting;
        server.kill('SIGKILL');
        expect(await exited).toBe(1);
        expect(stderr).toContain('vigil tool write_file: The Vigil core (pid');
        expect(stderr).toContain('stopped answering before the call finished, so it may or may not have run');
        expect(stdout).toContain('"code": "disconnected"');
        await expect(readFile(path.join(workspace.project, 'late.md'))).rejects.toMatchObject({ code: 'ENOENT' });
      } finally {
        server.kill('SIGKILL');
      }
    },
  );
});
