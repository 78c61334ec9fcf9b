import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxWorld, fakeCredentials, gitIn, type SandboxWorld } from './test-support/sandbox-fixture';

const worlds: SandboxWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.close();
});

async function world(files: Readonly<Record<string, string>> = {}): Promise<SandboxWorld> {
  const created = await createSandboxWorld(files);
  worlds.push(created);
  return created;
}

/** Every process whose command line holds `marker` (read from /proc, as `pgrep -f` would). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/u.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) found.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return found;
}

describe('the OS sandbox of agent commands', () => {
  it('starts here (bubblewrap, socat and ripgrep are installed)', async () => {
    const w = await world();
    expect(await w.sandbox.status()).toEqual({ kind: 'ready', engine: 'bubblewrap' });
  });

  it('lets a command write only in its workspace roots: a folder beside it, the home folder and /tmp stay byte-identical', async () => {
    const w = await world({ 'a.txt': 'old\n' });
    // Folders the engine would otherwise keep writable for its own tools.
    mkdirSync(path.join(w.home, '.npm', '_logs'), { recursive: true });
    mkdirSync(path.join(w.home, '.claude', 'debug'), { recursive: true });
    const victimBefore = w.snapshot(w.victim);
    const homeBefore = w.snapshot(w.home);
    const result = await w.run(
      `echo new > a.txt; echo x > ../victim/precious.txt; rm -rf ../victim/sub; touch "$HOME/planted"; touch /tmp/vigil-sbx-planted-${process.pid}; ln -s ../victim l && rm -rf l/; touch "$HOME/.npm/_logs/planted" "$HOME/.claude/debug/planted"`,
    );
    expect(readFileSync(path.join(w.workspace, 'a.txt'), 'utf8')).toBe('new\n');
    expect(result.stderr).toMatch(/Read-only file system/u);
    expect(w.snapshot(w.victim)).toEqual(victimBefore);
    expect(w.snapshot(w.home)).toEqual(homeBefore);
    expect(existsSync(`/tmp/vigil-sbx-planted-${process.pid}`)).toBe(false);
    // Nor the folders the engine keeps writable for its own tools in the account's real home (looked at, never touched).
    const prepared = await w.sandbox.prepare({
      command: 'true',
      cwd: w.workspace,
      roots: [w.workspace],
      sessionId: 'ses_test',
    });
    await prepared.ended();
    for (const folder of [path.join(os.homedir(), '.npm', '_logs'), path.join(os.homedir(), '.claude', 'debug')])
      expect(prepared.args.join(' ')).not.toContain(`--bind ${folder} ${folder}`);
  });

  it('gives concurrent commands of sessions with different roots each their own writable roots', async () => {
    const w = await world();
    const other = path.join(w.base, 'other-ws');
    mkdirSync(other);
    const [first, second] = await Promise.all([
      w.run(`sleep 0.3; echo a > mine.txt; echo a > "${other}/theirs.txt"`, {
        sessionId: 'ses_a',
        roots: [w.workspace],
      }),
      w.run(`sleep 0.3; echo b > mine.txt; echo b > "${w.workspace}/theirs.txt"`, {
        sessionId: 'ses_b',
        cwd: other,
        roots: [other],
      }),
    ]);
    expect(first.stderr + second.stderr).toMatch(/Read-only file system[\s\S]*Read-only file system/u);
    expect(readFileSync(path.join(w.workspace, 'mine.txt'), 'utf8')).toBe('a\n');
    expect(readFileSync(path.join(other, 'mine.txt'), 'utf8')).toBe('b\n');
    expect(existsSync(path.join(w.workspace, 'theirs.txt')) || existsSync(path.join(other, 'theirs.txt'))).toBe(false);
  });

  it('hides $VIGIL_HOME (serve.json and all) and every credential store, also through a parent folder, a link or a search', async () => {
    const w = await world();
    const result = await w.run(
      `cat "${w.vigilHome}/serve.json"; ls -A "${w.vigilHome}"; grep -rh FAKE "$HOME"; find "$HOME" -name id_rsa -exec cat {} +; tar cf - "$HOME" 2>/dev/null | grep -a -c FAKE; ln -s "$HOME" h && cat h/.ssh/id_rsa h/.aws/credentials; ln -s "${w.vigilHome}" v && cat v/serve.json; cat "$HOME/notes.txt"`,
    );
    const seen = result.stdout + result.stderr;
    expect(seen).not.toMatch(/SERVETOKEN|FAKE[A-Z]/u);
    expect(result.stdout).toContain('my own notes');
    for (const relative of Object.keys(fakeCredentials)) expect(existsSync(path.join(w.home, relative))).toBe(true);
  });

  it('gives commands no Vigil variable and no variable holding a Vigil token', async () => {
    const w = await world();
    const result = await w.run('env');
    const names = result.stdout.split('\n').map((line) => line.split('=')[0] ?? '');
    expect(names.filter((name) => /vigil/iu.test(name))).toEqual([]);
    expect(names).not.toContain('AGENT_KEY');
    expect(result.stdout).not.toContain('SERVETOKEN');
    expect(result.stdout).toMatch(new RegExp(`^HOME=${w.home}$`, 'mu'));
    expect(result.stdout).toMatch(/^HTTPS?_PROXY=/mu);
  });

  it('gives each session a private temp folder: writable by its own commands, invisible to the others', async () => {
    const w = await world();
    const first = await w.run('echo mine > "$TMPDIR/secret" && echo "$TMPDIR"', { sessionId: 'ses_one' });
    expect(first.exit_code).toBe(0);
    const temp = first.stdout.trim();
    expect(readFileSync(path.join(temp, 'secret'), 'utf8')).toBe('mine\n');
    const second = await w.run(`cat "${temp}/secret"; ls "${path.dirname(temp)}"; echo "$TMPDIR"`, {
      sessionId: 'ses_two',
    });
    expect(second.stdout).not.toContain('mine');
    expect(second.stdout.trim().split('\n').pop()).not.toBe(temp);
  });

  it('lets agents work: git init and commit in the workspace, build with node, install a local package with npm', async () => {
    const w = await world({ 'src/app.js': 'module.exports = 41 + 1;\n' });
    const pkg = path.join(w.base, 'pkg');
    mkdirSync(pkg);
    writeFileSync(
      path.join(pkg, 'package.json'),
      JSON.stringify({ name: 'local-answer', version: '1.0.0', main: 'index.js' }),
    );
    writeFileSync(path.join(pkg, 'index.js'), 'module.exports = "from the tarball";\n');
    execFileSync('npm', ['pack', '--silent', '--pack-destination', w.base], {
      cwd: pkg,
      env: { ...process.env, HOME: w.home, npm_config_cache: path.join(w.base, 'npm-cache') },
    });
    const tarball = path.join(w.base, 'local-answer-1.0.0.tgz');
    const git = await w.run(
      'git init -q && git add -A && git -c user.name=Agent -c user.email=agent@example.com commit -qm "first" && git log --format=%s',
    );
    expect(git.stderr).toBe('');
    expect(git.stdout.trim()).toBe('first');
    expect(gitIn(w.workspace, ['log', '--format=%s'])).toBe('first');
    const build = await w.run(
      "mkdir -p dist && node -e \"require('fs').writeFileSync('dist/out.txt', String(require('./src/app.js')))\" && cat dist/out.txt",
    );
    expect(build.stdout).toBe('42');
    const install = await w.run(
      `npm init -y >/dev/null && npm install --offline --no-audit --no-fund "${tarball}" && node -e "console.log(require('local-answer'))"`,
    );
    expect(install.exit_code).toBe(0);
    expect(install.stdout).toContain('from the tarball');
    expect(existsSync(path.join(w.workspace, 'node_modules', 'local-answer', 'index.js'))).toBe(true);
  });

  it("keeps a repository's hooks and config read-only, so nothing the agent plants there runs outside the sandbox", async () => {
    const w = await world({ 'a.txt': 'a\n' });
    gitIn(w.workspace, ['init', '-q']);
    const configBefore = readFileSync(path.join(w.workspace, '.git', 'config'), 'utf8');
    const result = await w.run(
      `echo 'rm -rf ~' > .git/hooks/post-checkout; git config core.fsmonitor 'rm -rf ~; echo'; git config alias.x '!rm -rf ~'; echo rc=$?`,
    );
    expect(result.stdout).toContain('rc=');
    expect(existsSync(path.join(w.workspace, '.git', 'hooks', 'post-checkout'))).toBe(false);
    expect(readFileSync(path.join(w.workspace, '.git', 'config'), 'utf8')).toBe(configBefore);
  });

  it('kills the whole sandboxed process tree when the command times out', async () => {
    const w = await world();
    const marker = `sleep 9${process.pid % 1000}7`;
    const result = await w.run(`${marker} & ${marker}`, { timeoutMs: 1500 });
    expect(result.timed_out).toBe(true);
    expect(processesWith(marker)).toEqual([]);
  });

  it('fails a command whose workspace root vanished with conflict, and never runs it', async () => {
    const w = await world();
    const gone = path.join(w.base, 'gone');
    mkdirSync(gone);
    rmSync(gone, { recursive: true });
    await expect(
      w.sandbox.prepare({ command: 'touch x', cwd: w.workspace, roots: [w.workspace, gone], sessionId: 'ses_test' }),
    ).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(`${gone} no longer exists`) as unknown,
    });
  });

  it('fails a profile with more mounts than bubblewrap takes with conflict, and never runs it', async () => {
    const w = await world();
    for (let index = 0; index < 800; index += 1) {
      mkdirSync(path.join(w.workspace, `repo${index}`, '.git', 'hooks'), { recursive: true });
      writeFileSync(path.join(w.workspace, `repo${index}`, '.git', 'HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(path.join(w.workspace, `repo${index}`, '.git', 'config'), '');
    }
    await expect(
      w.sandbox.prepare({ command: 'touch ran', cwd: w.workspace, roots: [w.workspace], sessionId: 'ses_test' }),
    ).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('could not be built') as unknown });
    expect(existsSync(path.join(w.workspace, 'ran'))).toBe(false);
  });

  it('applies policy.network through the proxy: any public host by default, never this machine unless listed, an allowlist, a denylist', async () => {
    const w = await world();
    const server = http.createServer((_request, response) => response.end('HOST-SERVICE'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const fetch = (url: string): string =>
      `curl -s -m 10 --noproxy '' -x "$HTTP_PROXY" -o /dev/null -w '%{http_code} ' ${url}; curl -s -m 10 --noproxy '' -x "$HTTP_PROXY" ${url}; echo`;
    try {
      const open = await w.run(`${fetch(`http://127.0.0.1:${port}/`)}; ${fetch('http://public-host.invalid/')}`);
      expect(open.stdout).not.toContain('HOST-SERVICE');
      expect(open.stdout.split('\n')[0]).toMatch(/^403 /u);
      expect(open.stdout.split('\n')[1]).not.toMatch(/^403 /u);
      w.settings = { ...w.settings, network: { allowedDomains: [`127.0.0.1:${port}`], deniedDomains: [] } };
      const listed = await w.run(`${fetch(`http://127.0.0.1:${port}/`)}; ${fetch('http://public-host.invalid/')}`);
      expect(listed.stdout).toContain('HOST-SERVICE');
      expect(listed.stdout.split('\n')[1]).toMatch(/^403 /u);
      w.settings = { ...w.settings, network: { allowedDomains: [`127.0.0.1:${port}`], deniedDomains: ['127.0.0.1'] } };
      const denied = await w.run(fetch(`http://127.0.0.1:${port}/`));
      expect(denied.stdout).not.toContain('HOST-SERVICE');
      expect(denied.stdout).toMatch(/^403 /u);
    } finally {
      server.close();
    }
  });

  it('says why and what fixes it when bubblewrap is missing, without starting anything', async () => {
    const w = await world();
    w.settings = { ...w.settings, sandbox: { ...w.settings.sandbox, bwrapPath: path.join(w.base, 'no-bwrap-here') } };
    const status = await w.sandbox.status();
    expect(status).toMatchObject({
      kind: 'unavailable',
      reason: expect.stringContaining('no-bwrap-here') as unknown,
      fix: expect.stringContaining('bubblewrap') as unknown,
    });
  });
});
