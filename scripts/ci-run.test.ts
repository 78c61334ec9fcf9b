import { spawn } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * .ci/run's checks, run for real by bash with a PATH of stand-in tools: which node it finds, whether
 * it is root (`id -u`), whether sudo exists. npm, sudo and apt-get log what they were asked.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const temps: string[] = [];

afterEach(async () => {
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
});

interface Machine {
  /** What `node -p process.versions.node` prints; undefined: no node. */
  readonly node?: string;
  readonly uid: number;
  /** The tools on PATH besides node, npm, id, dirname and chmod. */
  readonly tools: readonly ('git' | 'python3' | 'chromium' | 'bwrap' | 'socat' | 'rg' | 'sudo' | 'apt-get')[];
  /** A package.json to run .ci/run against (a copy of the script beside it); default: the repository's. */
  readonly packageJson?: string;
}

/** The .ci/run to execute: the repository's, or a copy in a scratch repository holding `packageJson`. */
async function ciScript(packageJson: string | undefined): Promise<string> {
  if (packageJson === undefined) return path.join(root, '.ci/run');
  const repo = await mkdtemp(path.join(os.tmpdir(), 'vigil-ci-repo-'));
  temps.push(repo);
  await mkdir(path.join(repo, '.ci'));
  await copyFile(path.join(root, '.ci/run'), path.join(repo, '.ci/run'));
  await writeFile(path.join(repo, 'package.json'), packageJson);
  return path.join(repo, '.ci/run');
}

async function runCi(machine: Machine): Promise<{ code: number | null; output: string; log: string }> {
  const bin = await mkdtemp(path.join(os.tmpdir(), 'vigil-ci-bin-'));
  temps.push(bin);
  const log = path.join(bin, 'calls.log');
  const tool = async (name: string, body: string): Promise<void> => {
    await writeFile(path.join(bin, name), `#!/bin/bash\n${body}\n`);
    await chmod(path.join(bin, name), 0o755);
  };
  for (const real of ['dirname', 'chmod']) await symlink(`/usr/bin/${real}`, path.join(bin, real));
  await tool('id', `echo ${machine.uid}`);
  await tool('npm', `echo "npm $*" >> '${log}'; echo 10.0.0`);
  if (machine.node !== undefined) await tool('node', `[ "$1" = -p ] && echo ${machine.node} || echo v${machine.node}`);
  for (const name of machine.tools) await tool(name, `echo "${name} $*" >> '${log}'`);
  if (machine.tools.includes('sudo')) await tool('sudo', `echo "sudo $*" >> '${log}'\nexec "$@"`);
  // apt-get "installs" a package by putting a stand-in of that name on PATH (nodejs does not provide `node`).
  if (machine.tools.includes('apt-get')) {
    await tool(
      'apt-get',
      [
        `echo "apt-get $*" >> '${log}'`,
        '[ "$1" = install ] || exit 0',
        `for p in "$@"; do case "$p" in -*|install) ;; *) printf '#!/bin/bash\necho stand-in\n' > '${bin}'/"$p"; chmod +x '${bin}'/"$p" ;; esac; done`,
      ].join('\n'),
    );
  }
  const child = spawn('/bin/bash', [await ciScript(machine.packageJson)], {
    env: { PATH: bin, HOME: bin, CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output, log: await readFile(log, 'utf8').catch(() => '') };
}

const sandboxTools = ['bwrap', 'socat', 'rg'] as const;
const everything = ['git', 'python3', 'chromium', ...sandboxTools, 'apt-get'] as const;

describe('.ci/run', () => {
  it('runs npm ci and npm test when every tool is there and node is new enough', async () => {
    const run = await runCi({ node: '20.19.0', uid: 0, tools: everything });
    expect(run.code).toBe(0);
    expect(run.log).toContain('npm ci\nnpm test\n');
    expect(run.log).not.toContain('apt-get');
  });

  it('refuses a node older than 20.19, naming what to install', async () => {
    for (const old of ['20.18.3', '18.20.4']) {
      const run = await runCi({ node: old, uid: 0, tools: everything });
      expect(run.code).toBe(1);
      expect(run.output).toContain(`Node.js ${old} is too old: Vigil needs 20.19 or newer`);
      expect(run.output).toContain('install Node.js 20.19+');
      expect(run.log).not.toContain('npm ci');
    }
    expect((await runCi({ node: '22.1.0', uid: 0, tools: everything })).code).toBe(0);
  });

  it("takes the minimum from package.json's engines, and stops when it cannot read one", async () => {
    const engines = (node: string): string =>
      JSON.stringify({ name: 'x', engines: { node }, devDependencies: { '@types/node': '>=1.2' } }, null, 2);
    const raised = await runCi({ node: '22.2.9', uid: 0, tools: everything, packageJson: engines('>=22.3') });
    expect(raised.code).toBe(1);
    expect(raised.output).toContain('Node.js 22.2.9 is too old: Vigil needs 22.3 or newer');
    expect((await runCi({ node: '22.3.0', uid: 0, tools: everything, packageJson: engines('>=22.3') })).code).toBe(0);

    const unreadable = await runCi({ node: '22.3.0', uid: 0, tools: everything, packageJson: engines('^22') });
    expect(unreadable.code).toBe(1);
    expect(unreadable.output).toContain('package.json has no engines entry of the form "node": ">=MAJOR.MINOR"');
    expect(unreadable.log).not.toContain('npm ci');
  });

  it('installs python3 (and any other missing package) with apt-get when root', async () => {
    const run = await runCi({ node: '20.19.0', uid: 0, tools: ['git', 'chromium', ...sandboxTools, 'apt-get'] });
    expect(run.code).toBe(0);
    expect(run.log).toContain('apt-get install -y -qq python3');
  });

  it('installs the OS sandbox (bubblewrap, socat, ripgrep) when any of its tools is missing', async () => {
    const run = await runCi({ node: '20.19.0', uid: 0, tools: ['git', 'python3', 'chromium', 'socat', 'apt-get'] });
    expect(run.code).toBe(0);
    expect(run.log).toContain('apt-get install -y -qq bubblewrap ripgrep');
    expect(run.log).toContain('npm ci\nnpm test\n');
  });

  it('uses sudo when not root, and says what to do when there is no sudo either', async () => {
    const withSudo = await runCi({
      node: '20.19.0',
      uid: 1000,
      tools: ['git', 'chromium', ...sandboxTools, 'apt-get', 'sudo'],
    });
    expect(withSudo.code).toBe(0);
    expect(withSudo.log).toContain('sudo apt-get install -y -qq python3');

    const without = await runCi({ node: '20.19.0', uid: 1000, tools: ['git', 'chromium', ...sandboxTools, 'apt-get'] });
    expect(without.code).toBe(1);
    expect(without.output).toContain('these Debian packages are missing: python3');
    expect(without.output).toContain('this user is not root and has no sudo');
    expect(without.output).toContain('apt-get install -y python3');
    expect(without.log).not.toContain('apt-get');
  });

  it('with no node at all, asks apt-get for nodejs and npm, then says what is missing if that did not help', async () => {
    const run = await runCi({ uid: 0, tools: everything });
    expect(run.log).toContain('apt-get install -y -qq nodejs');
    expect(run.code).toBe(1);
    expect(run.output).toContain("no working 'node' on PATH. Install Node.js 20.19 or newer");
  });
});
