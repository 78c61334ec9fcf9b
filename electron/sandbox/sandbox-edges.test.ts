import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxWorld, gitIn, type SandboxWorld } from './test-support/sandbox-fixture';

/**
 * Issue 30, C1, M1, H4: nothing a sandboxed command writes may become code that runs outside the
 * sandbox later. Each attack runs in the real sandbox with a throwaway HOME; then the user's own git
 * runs outside it, and the payload (which would write ../victim/x) must not have run.
 */
const worlds: SandboxWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.close();
});

const payload = 'echo PWNED > ../victim/x; false';
const fsmonitor = `[core]\\n\\tfsmonitor = \\"${payload}\\"\\n`;

/** A workspace that is a git repository with one commit. */
async function repoWorld(files: Readonly<Record<string, string>> = { 'a.txt': 'a\n' }): Promise<SandboxWorld> {
  const w = await createSandboxWorld(files);
  worlds.push(w);
  gitIn(w.workspace, ['init', '-q', '-b', 'main']);
  gitIn(w.workspace, ['config', 'user.name', 'Agent']);
  gitIn(w.workspace, ['config', 'user.email', 'agent@example.com']);
  gitIn(w.workspace, ['add', '-A']);
  gitIn(w.workspace, ['commit', '-qm', 'first']);
  return w;
}

/** The user's own git, outside the sandbox, in `folder`: what a planted payload would run under. */
function userGit(folder: string, args: readonly string[]): void {
  try {
    execFileSync('git', args, {
      cwd: folder,
      stdio: 'ignore',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    });
  } catch {
    // A failing git is fine: what matters is whether the payload ran.
  }
}

function payloadRan(w: SandboxWorld): boolean {
  return existsSync(path.join(w.victim, 'x'));
}

describe('git metadata stays read-only to sandboxed commands (C1)', () => {
  it('removes a planted commondir once the command ends, so the user’s git status runs nothing', async () => {
    const w = await repoWorld();
    const result = await w.run(
      `mkdir -p .cache/g && cp -r .git/objects .git/refs .git/HEAD .cache/g/ && printf "${fsmonitor}" > .cache/g/config && echo ../.cache/g > .git/commondir`,
    );
    expect(existsSync(path.join(w.workspace, '.git', 'commondir'))).toBe(false);
    expect(result.sandbox_notes?.join('\n')).toMatch(/removed .*commondir/u);
    userGit(w.workspace, ['status']);
    expect(payloadRan(w)).toBe(false);
  });

  it('keeps the folder core.hooksPath names (husky) and an include.path file read-only', async () => {
    const w = await repoWorld();
    gitIn(w.workspace, ['config', 'core.hooksPath', '.husky']);
    gitIn(w.workspace, ['config', 'include.path', '../conf/extra']);
    const result = await w.run(
      `mkdir -p .husky conf; printf '#!/bin/sh\\n${payload}\\n' > .husky/pre-commit; chmod +x .husky/pre-commit; printf "${fsmonitor}" > conf/extra`,
    );
    expect(result.stderr).toMatch(/Read-only file system|Permission denied/u);
    userGit(w.workspace, ['commit', '--allow-empty', '-qm', 'second']);
    userGit(w.workspace, ['status']);
    expect(payloadRan(w)).toBe(false);
  });

  it('protects a repository five folders deep, one under node_modules, and a submodule’s .git/modules config', async () => {
    const w = await repoWorld();
    const deep = path.join(w.workspace, 'a', 'b', 'c', 'd', 'deep');
    const dependency = path.join(w.workspace, 'node_modules', 'pkg');
    for (const folder of [deep, dependency]) {
      mkdirSync(folder, { recursive: true });
      gitIn(folder, ['init', '-q']);
    }
    gitIn(w.workspace, ['init', '-q', '--bare', '.git/modules/sub']);
    mkdirSync(path.join(w.workspace, 'sub'));
    writeFileSync(path.join(w.workspace, 'sub', '.git'), 'gitdir: ../.git/modules/sub\n');
    gitIn(w.workspace, ['--git-dir=.git/modules/sub', 'config', 'core.bare', 'false']);
    gitIn(w.workspace, ['--git-dir=.git/modules/sub', 'config', 'core.worktree', '../../../sub']);
    const result = await w.run(
      `for c in a/b/c/d/deep/.git/config node_modules/pkg/.git/config .git/modules/sub/config; do printf "${fsmonitor}" >> "$c"; done; printf '#!/bin/sh\\n${payload}\\n' > node_modules/pkg/.git/hooks/pre-commit`,
    );
    expect(result.stderr).toMatch(/Read-only file system/u);
    for (const folder of [deep, dependency, path.join(w.workspace, 'sub')]) userGit(folder, ['status']);
    userGit(dependency, ['commit', '--allow-empty', '-qm', 'x']);
    expect(payloadRan(w)).toBe(false);
  });

  it('lets an agent do its normal git work in the sandbox: add, commit, branch, checkout, stash, rebase', async () => {
    const w = await repoWorld();
    const result = await w.run(
      [
        'echo b > b.txt && git add -A && git commit -qm second',
        'git branch topic && git checkout -q topic && echo c > c.txt && git add c.txt && git commit -qm third',
        'echo dirty >> a.txt && git stash -q && git stash pop -q && git checkout -q -- a.txt',
        'git checkout -q main && echo d > d.txt && git add d.txt && git commit -qm fourth',
        'git checkout -q topic && git rebase -q main && git log --format=%s',
      ].join(' && '),
    );
    expect(result.stderr).toBe('');
    expect(result.exit_code).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual(['third', 'fourth', 'second', 'first']);
    expect(gitIn(w.workspace, ['fsck', '--no-progress', '--no-dangling'])).toBe('');
    expect(gitIn(w.workspace, ['status', '--porcelain'])).toBe('');
  });
});

describe('agent and editor settings stay read-only to sandboxed commands (M1)', () => {
  it('refuses .claude/settings.json, .mcp.json, .envrc, .vscode/tasks.json and leaves no trace of the guard', async () => {
    const w = await repoWorld();
    mkdirSync(path.join(w.workspace, 'pkg', '.vscode'), { recursive: true });
    writeFileSync(path.join(w.workspace, 'pkg', '.vscode', 'settings.json'), '{}\n');
    const result = await w.run(
      'mkdir -p .claude && echo {} > .claude/settings.json; echo {} > .mcp.json; echo evil > .envrc; mkdir -p .vscode && echo {} > .vscode/tasks.json; echo {} > pkg/.vscode/tasks.json',
    );
    expect(result.stderr).toMatch(/Read-only file system/u);
    // The spawn server answers as soon as the command exited and removes the guard's placeholders right after
    // (before it wraps another command): gone within moments of the answer, never left behind.
    const traces = (): string[] =>
      ['.claude', '.mcp.json', '.envrc', '.vscode', 'pkg/.vscode/tasks.json'].filter((name) =>
        existsSync(path.join(w.workspace, name)),
      );
    await expect.poll(traces, { timeout: 10_000 }).toEqual([]);
    expect(result.sandbox_notes?.join('\n')).toMatch(
      /removed .*\.mcp\.json[\s\S]*removed .*\.envrc|removed .*\.envrc[\s\S]*removed .*\.mcp\.json/u,
    );
  });
});

describe('hard links to files outside the workspace (H4)', () => {
  it('keeps a file hard-linked to a file outside read-only: the outside file stays as it was', async () => {
    const w = await repoWorld();
    const outside = path.join(w.victim, 'store.js');
    writeFileSync(outside, 'module.exports = 1;\n');
    linkSync(outside, path.join(w.workspace, 'linked.js'));
    const result = await w.run('echo "require(\\"child_process\\")" >> linked.js; cat linked.js');
    expect(result.stderr).toMatch(/Read-only file system/u);
    expect(readFileSync(outside, 'utf8')).toBe('module.exports = 1;\n');
  });
});

describe('resource limits inside the sandbox (M4)', () => {
  // The kernel exempts root from RLIMIT_NPROC: as root a fork bomb would take the whole machine.
  it.skipIf(process.getuid?.() === 0)('stops a fork bomb at the process limit and says so', async () => {
    const w = await repoWorld();
    w.settings = {
      ...w.settings,
      sandbox: { ...w.settings.sandbox, limits: { ...w.settings.sandbox.limits, processes: 200 } },
    };
    const result = await w.run('bomb() { bomb | bomb & }; bomb; sleep 2; echo survived', { timeoutMs: 20_000 });
    expect(result.sandbox_notes?.join('\n')).toMatch(
      /limit of 200 processes at once \(policy\.sandbox\.limits\.processes/u,
    );
  });

  it('sets hard limits the command cannot raise', async () => {
    const w = await repoWorld();
    const result = await w.run('ulimit -t unlimited; ulimit -d unlimited; ulimit -H -t; ulimit -H -d; ulimit -H -f');
    expect(result.stdout.trim().split('\n')).toEqual(['1805', String(2048 * 1024), String(4096 * 2048)]);
  });

  it('refuses a 2 GiB allocation with the default limits, and a normal command runs under them', async () => {
    const w = await repoWorld();
    const result = await w.run('python3 -c "b = bytearray(2 * 1024 ** 3); print(len(b))"');
    expect(result.exit_code).not.toBe(0);
    expect(result.sandbox_notes?.join('\n')).toMatch(/memory limit of 2048 MiB/u);
    const normal = await w.run('node -e "console.log(Buffer.alloc(64 * 1024 * 1024).length)" && git status --short');
    expect(normal.exit_code).toBe(0);
    expect(normal.sandbox_notes).toBeUndefined();
  });

  it('reports the CPU time and file size limits by name', async () => {
    const w = await repoWorld();
    w.settings = {
      ...w.settings,
      sandbox: { ...w.settings.sandbox, limits: { ...w.settings.sandbox.limits, cpuSeconds: 1, fileMiB: 1 } },
    };
    const cpu = await w.run('while :; do :; done', { timeoutMs: 30_000 });
    expect(cpu.sandbox_notes?.join('\n')).toMatch(/CPU time limit of 1 s/u);
    const file = await w.run('head -c 3000000 /dev/zero > big.bin');
    expect(file.sandbox_notes?.join('\n')).toMatch(/file size limit of 1 MiB/u);
  });
});
