import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { CommandSandbox } from './command-sandbox';
import { defaultSandboxSettings } from './sandbox-settings';
import { engineBridges as bridges, until } from './test-support/engine-bridges';

/**
 * A one-shot command (`vigil tool terminal` without a core) starts the sandbox engine ahead of its
 * command, while the call is logged and checked: the command still runs confined, and the engine's
 * bridges stop with the process's sandbox even when no command ran (a call the policy refused).
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface OneShot {
  readonly sandbox: CommandSandbox;
  readonly dir: string;
  readonly workspace: string;
  readonly outside: string;
}

async function newDir(): Promise<string> {
  const { dir, remove } = await makeTempDir('vigil-sbx-warm-');
  cleanups.push(remove);
  return dir;
}

/** A one-shot process's sandbox; `dir` again gives the next process's (the same data folder and workspace). */
async function oneShotSandbox(existing?: string): Promise<OneShot> {
  const dir = existing ?? (await newDir());
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
  cleanups.push(() => sandbox.dispose());
  return { sandbox, dir, workspace, outside };
}

function runIn(sandbox: CommandSandbox, workspace: string, command: string) {
  return sandbox.run({
    command,
    cwd: workspace,
    roots: [workspace],
    sessionId: 'ses_one_shot',
    timeoutMs: 60_000,
    outputCapBytes: 1 << 20,
  });
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
    const planted = JSON.stringify(path.join(outside, 'planted.txt'));
    const result = await runIn(sandbox, workspace, `echo in > inside.txt; echo out > ${planted}; echo done`);
    expect(result.stdout).toBe('done\n');
    expect(result.stderr).toMatch(/Read-only file system/u);
    expect(readFileSync(path.join(workspace, 'inside.txt'), 'utf8')).toBe('in\n');
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
  });

  it('protects a repository made after the previous one-shot command, though it kept its look at the roots', async () => {
    const first = await oneShotSandbox();
    expect((await runIn(first.sandbox, first.workspace, 'mkdir -p a/b && echo ok')).stdout).toBe('ok\n');
    await first.sandbox.dispose();
    mkdirSync(path.join(first.workspace, 'a', 'b', 'repo', '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(first.workspace, 'a', 'b', 'repo', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(path.join(first.workspace, 'a', 'b', 'repo', '.git', 'config'), '[core]\n');
    const next = await oneShotSandbox(first.dir);
    const result = await runIn(
      next.sandbox,
      next.workspace,
      'echo "[core] fsmonitor = touch /tmp/pwned" >> a/b/repo/.git/config; echo x > a/b/repo/.git/hooks/pre-commit; echo done',
    );
    expect(result.stdout).toBe('done\n');
    expect(result.stderr).toMatch(/Read-only file system/u);
    expect(readFileSync(path.join(next.workspace, 'a', 'b', 'repo', '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(path.join(next.workspace, 'a', 'b', 'repo', '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readdirSync(path.join(first.dir, 'vigil', 'sandbox-scans')).length).toBeGreaterThan(0);
  });
});
