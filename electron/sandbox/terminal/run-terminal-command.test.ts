import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../lib/process/is-process-alive';
import { makeTempDir } from '../../test-support/temp-dir';
import { CappedOutput } from './capped-output';
import { runTerminalCommand } from './run-terminal-command';

const isPosix = process.platform !== 'win32';
let dir: string;
let remove: () => Promise<void>;

beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-terminal-'));
});
afterEach(async () => {
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

async function waitUntilDead(pid: number): Promise<void> {
  while (isRunning(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.runIf(isPosix)('runTerminalCommand', () => {
  it('runs in the given folder with the platform shell and returns stdout, stderr and the exit code', async () => {
    const result = await runTerminalCommand({
      command: 'pwd; echo oops >&2; exit 3',
      cwd: dir,
      timeoutMs: 30_000,
      outputCapBytes: 1024,
    });
    expect(result).toMatchObject({
      exit_code: 3,
      signal: null,
      timed_out: false,
      stdout: `${dir}\n`,
      stderr: 'oops\n',
      stdout_dropped_bytes: 0,
      cwd: dir,
    });
  });

  it('keeps the beginning and the end of long output and says how many bytes were dropped', async () => {
    const result = await runTerminalCommand({
      command: 'echo FIRST; yes line | head -c 300000; echo; echo LAST',
      cwd: dir,
      timeoutMs: 30_000,
      outputCapBytes: 4096,
    });
    expect(result.stdout.startsWith('FIRST\n')).toBe(true);
    expect(result.stdout.endsWith('LAST\n')).toBe(true);
    expect(result.stdout_dropped_bytes).toBe(6 + 300_000 + 1 + 5 - 4096);
    expect(result.stdout).toContain(`[… output truncated: ${result.stdout_dropped_bytes} bytes dropped …]`);
  });

  it('kills the whole process tree when the timeout passes', async () => {
    const pidFile = path.join(dir, 'grandchild.pid');
    const result = await runTerminalCommand({
      command: `sleep 600 & echo $! > ${pidFile}; sleep 600`,
      cwd: dir,
      timeoutMs: 300,
      outputCapBytes: 1024,
    });
    expect(result).toMatchObject({ timed_out: true, exit_code: null, signal: 'SIGKILL' });
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await waitUntilDead(grandchild);
    expect(isRunning(grandchild)).toBe(false);
  });

  it('returns when the shell exits even if a background process keeps its output open', async () => {
    const pidFile = path.join(dir, 'server.pid');
    const result = await runTerminalCommand({
      command: `sleep 600 & echo $! > ${pidFile}; echo started`,
      cwd: dir,
      timeoutMs: 60_000,
      outputCapBytes: 1024,
    });
    expect(result).toMatchObject({ exit_code: 0, timed_out: false, stdout: 'started\n' });
    const server = Number(readFileSync(pidFile, 'utf8'));
    expect(isRunning(server)).toBe(true);
    process.kill(server, 'SIGKILL');
  });

  it('stops the command when the core shuts down', async () => {
    const controller = new AbortController();
    const running = runTerminalCommand({
      command: 'echo up; sleep 600',
      cwd: dir,
      timeoutMs: 60_000,
      outputCapBytes: 1024,
      signal: controller.signal,
    });
    controller.abort();
    expect(await running).toMatchObject({ signal: 'SIGKILL', timed_out: false });
  });

  it('is an io_error when the folder does not exist', async () => {
    await expect(
      runTerminalCommand({ command: 'true', cwd: path.join(dir, 'missing'), timeoutMs: 1000, outputCapBytes: 1024 }),
    ).rejects.toMatchObject({ code: 'io_error' });
  });
});

describe('CappedOutput', () => {
  it('keeps everything under the cap', () => {
    const output = new CappedOutput(10);
    output.push(Buffer.from('abc'));
    output.push(Buffer.from('def'));
    expect(output.text()).toBe('abcdef');
    expect(output.droppedBytes).toBe(0);
  });

  it('keeps the first and last halves of the cap across many chunks', () => {
    const output = new CappedOutput(8);
    for (const chunk of ['0123', '4567', '89ab', 'cdef']) output.push(Buffer.from(chunk));
    expect(output.droppedBytes).toBe(8);
    expect(output.text()).toBe('0123\n[… output truncated: 8 bytes dropped …]\ncdef');
  });
});
