import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { CommandSandbox } from './command-sandbox';
import { defaultSandboxSettings } from './sandbox-settings';

/**
 * A one-shot command (`vigil tool terminal` without a core) starts the sandbox engine ahead of its
 * command, while the call is logged and checked: the command still runs confined, and the engine's
 * bridges stop with the process's sandbox even when no command ran (a call the policy refused).
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function oneShotSandbox(): Promise<{ sandbox: CommandSandbox; workspace: string; outside: string }> {
  const { dir, remove } = await makeTempDir('vigil-sbx-warm-');
  const home = path.join(dir, 'home');
  const workspace = path.join(dir, 'ws');
  const outside = path.join(dir, 'outside');
  const vigilHome = path.join(dir, 'vigil');
  for (const folder of [home, workspace, outside, vigilHome]) mkdirSync(folder, { recursive: true });
  const sandbox = new CommandSandbox({
    vigilHome,
    home,
    settings: () => Promise.resolve(defaultSandboxSettings),
    logger: silentLogger,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home },
    tempRoot: path.join(dir, 'tmp'),
    spawn: 'in-process',
  });
  cleanups.push(remove, () => sandbox.dispose());
  return { sandbox, workspace, outside };
}

/** This process's children running socat as the engine's host-side bridge. */
function bridges(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/u.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('UNIX-LISTEN:');
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 600 && !condition(); attempt += 1)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(condition()).toBe(true);
}

describe.skipIf(process.platform !== 'linux')('a one-shot sandbox started ahead of its command', () => {
  it('starts its engine before any command and stops its bridges on dispose when no command ran', async () => {
    const { sandbox } = await oneShotSandbox();
    expect(bridges()).toEqual([]);
    sandbox.warmUp();
    await until(() => bridges().length > 0);
    await sandbox.dispose();
    expect(bridges()).toEqual([]);
  });

  it('then runs the command confined to its workspace', async () => {
    const { sandbox, workspace, outside } = await oneShotSandbox();
    sandbox.warmUp();
    const result = await sandbox.run({
      command: `echo in > inside.txt; echo out > ${JSON.stringify(path.join(outside, 'planted.txt'))}; echo done`,
      cwd: workspace,
      roots: [workspace],
      sessionId: 'ses_warm',
      timeoutMs: 60_000,
      outputCapBytes: 1 << 20,
    });
    expect(result.stdout).toBe('done\n');
    expect(result.stderr).toMatch(/Read-only file system/u);
    expect(readFileSync(path.join(workspace, 'inside.txt'), 'utf8')).toBe('in\n');
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
  });
});
