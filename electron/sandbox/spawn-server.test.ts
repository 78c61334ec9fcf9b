import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger';
import { isProcessAlive } from '../lib/process/is-process-alive';
import { childEnv } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { SpawnServer } from './spawn-client';

const isPosix = process.platform !== 'win32';
const isLinux = process.platform === 'linux';
let dir: string;
let remove: () => Promise<void>;
let server: SpawnServer;

beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-spawn-'));
  server = new SpawnServer(childEnv(), silentLogger);
});

afterEach(async () => {
  await server.dispose();
  await remove();
});

/** Alive and not a zombie waiting for a reaper (containers may have none). */
function isRunning(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  try {
    return !/^\d+ \(.*\) Z/u.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return process.platform !== 'linux';
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

function request(command: string, timeoutMs = 60_000): Parameters<SpawnServer['run']>[0] {
  return { command, cwd: dir, env: childEnv(), timeoutMs, outputCapBytes: 1 << 16 };
}

describe.runIf(isPosix)('the spawn server', () => {
  it('runs a command in its own process, not this one, and returns its output and exit code', async () => {
    const result = await server.run(request('echo "parent $PPID"; pwd; echo oops >&2; exit 3'));
    const serverPid = await server.pid();
    expect(serverPid).toBeDefined();
    expect(serverPid).not.toBe(process.pid);
    expect(result).toMatchObject({
      exit_code: 3,
      signal: null,
      timed_out: false,
      stdout: `parent ${serverPid}\n${dir}\n`,
      stderr: 'oops\n',
      cwd: dir,
    });
  });

  it('fails the command it ran when it is killed, kills that command, and starts again for the next one', async () => {
    const pidFile = path.join(dir, 'command.pid');
    const running = server.run(request(`echo $$ > ${pidFile}; sleep 600`));
    const first = await server.pid();
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'));
    const commandPid = Number(readFileSync(pidFile, 'utf8'));
    process.kill(first ?? 0, 'SIGKILL');
    const error = await running.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toMatchObject({ code: 'io_error' });
    expect((error as Error).message).toMatch(/spawn server .* stopped while it ran \(it was killed by SIGKILL\)/u);
    expect((error as Error).message).toMatch(/Run it again/u);
    await until(() => !isRunning(commandPid));
    const next = await server.run(request('echo again'));
    expect(next).toMatchObject({ exit_code: 0, stdout: 'again\n' });
    const second = await server.pid();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
  });

  it('kills the whole process tree when the timeout passes', async () => {
    const pidFile = path.join(dir, 'grandchild.pid');
    const result = await server.run(request(`sleep 600 & echo $! > ${pidFile}; sleep 600`, 300));
    expect(result).toMatchObject({ timed_out: true, exit_code: null, signal: 'SIGKILL' });
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await until(() => !isRunning(grandchild));
    expect(isRunning(grandchild)).toBe(false);
  });

  it('stops a command when its call is cancelled', async () => {
    const controller = new AbortController();
    const pidFile = path.join(dir, 'cancelled.pid');
    const running = server.run(request(`echo $$ > ${pidFile}; sleep 600`), controller.signal);
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'));
    controller.abort();
    expect(await running).toMatchObject({ signal: 'SIGKILL', timed_out: false });
  });

  it.runIf(isLinux)('answers a sandboxed command, and says once the mount points made for it are gone', async () => {
    const [engine, work] = [path.join(dir, 'engine'), path.join(dir, 'work')];
    mkdirSync(engine);
    mkdirSync(work);
    const placeholder = path.join(work, '.claude');
    const result = await server.run({
      ...request('touch made && ! touch .claude/settings.json'),
      cwd: work,
      wrap: {
        directory: engine,
        denyRead: [],
        allowWrite: [work],
        denyWrite: [path.join(placeholder, '.vigil-read-only')],
        temp: work,
        network: { deniedDomains: [] },
      },
    });
    expect(result).toMatchObject({ exit_code: 0 });
    await server.released();
    expect(existsSync(placeholder)).toBe(false);
    expect(existsSync(path.join(work, 'made'))).toBe(true);
  });

  it('stops with the core: a command still running is killed when the server is disposed', async () => {
    const pidFile = path.join(dir, 'left.pid');
    const running = server.run(request(`echo $$ > ${pidFile}; sleep 600`)).catch((error: unknown) => error);
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'));
    const commandPid = Number(readFileSync(pidFile, 'utf8'));
    await server.dispose();
    await running;
    await until(() => !isRunning(commandPid));
    expect(isRunning(commandPid)).toBe(false);
  });
});
