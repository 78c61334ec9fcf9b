import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { silentLogger } from '../../logging/logger';
import type { TerminalResult } from '../terminal/run-terminal-command';
import { makeTempDir } from '../../test-support/temp-dir';
import { CommandSandbox } from '../command-sandbox';
import type { RootScanCache } from '../root-scan-cache';
import { defaultSandboxSettings, type SandboxSettings } from '../sandbox-settings';

/** A throwaway world for sandbox tests: a home with fake credentials, a workspace, a victim folder beside it, a VIGIL_HOME. */
export interface SandboxWorld {
  readonly base: string;
  readonly home: string;
  readonly workspace: string;
  readonly victim: string;
  readonly vigilHome: string;
  readonly sandbox: CommandSandbox;
  settings: SandboxSettings;
  /** Runs a command in the sandbox as the terminal tool does. */
  run(
    command: string,
    options?: {
      readonly cwd?: string;
      readonly sessionId?: string;
      readonly timeoutMs?: number;
      readonly roots?: readonly string[];
    },
  ): Promise<TerminalResult>;
  /** Every file under a folder with its bytes, for byte-identical comparisons. */
  snapshot(folder: string): Record<string, string>;
  close(): Promise<void>;
}

/** The fake credentials laid down in the throwaway home. */
export const fakeCredentials: Readonly<Record<string, string>> = {
  '.ssh/id_rsa': '-----BEGIN OPENSSH PRIVATE KEY-----\nFAKEKEY\n',
  '.aws/credentials': '[default]\naws_secret_access_key = FAKEAWS\n',
  '.config/git/credentials': 'https://user:FAKEGIT@example.com\n',
  '.git-credentials': 'https://user:FAKEGIT2@example.com\n',
  '.npmrc': '//registry.npmjs.org/:_authToken=FAKENPM\n',
  '.config/gh/hosts.yml': 'github.com:\n  oauth_token: FAKEGH\n',
  '.kube/config': 'token: FAKEKUBE\n',
  '.docker/config.json': '{"auths":{"x":{"auth":"FAKEDOCKER"}}}\n',
  '.gnupg/private.key': 'FAKEGPG\n',
  'notes.txt': 'my own notes\n',
};

function writeTree(root: string, files: Readonly<Record<string, string>>): void {
  for (const [relative, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), content);
  }
}

/** Reads every file under `folder` (symlinks as their target text), keyed by relative path. */
export function snapshotTree(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const key = path.relative(folder, full);
      if (entry.isDirectory()) {
        out[`${key}/`] = `mode ${(statSync(full).mode & 0o7777).toString(8)}`;
        walk(full);
      } else if (entry.isFile()) out[key] = readFileSync(full, 'base64');
      else out[key] = `special ${entry.isSymbolicLink() ? 'link' : 'other'}`;
    }
  };
  walk(folder);
  return out;
}

/** Builds the world; `files` go into the workspace. */
export async function createSandboxWorld(
  files: Readonly<Record<string, string>> = {},
  options: { readonly scans?: RootScanCache; readonly base?: string } = {},
): Promise<SandboxWorld> {
  const { dir: base, remove } =
    options.base === undefined
      ? await makeTempDir('vigil-sbx-')
      : { dir: options.base, remove: () => rm(options.base ?? '', { recursive: true, force: true }) };
  const home = path.join(base, 'home');
  const workspace = path.join(base, 'ws');
  const victim = path.join(base, 'victim');
  const vigilHome = path.join(base, 'vigil');
  for (const folder of [home, workspace, victim, vigilHome]) mkdirSync(folder, { recursive: true, mode: 0o700 });
  writeTree(home, fakeCredentials);
  writeTree(victim, { 'precious.txt': 'do not touch\n', 'sub/data.json': '{"a":1}\n' });
  writeTree(vigilHome, { 'serve.json': '{"port":7420,"token":"SERVETOKEN0123456789"}\n', 'config.json': '{}\n' });
  writeTree(workspace, files);
  const world: SandboxWorld = {
    base,
    home,
    workspace,
    victim,
    vigilHome,
    settings: defaultSandboxSettings,
    sandbox: new CommandSandbox({
      vigilHome,
      home,
      settings: () => Promise.resolve(world.settings),
      logger: silentLogger,
      env: {
        ...process.env,
        HOME: home,
        VIGIL_HOME: vigilHome,
        VIGIL_TOKEN: 'SERVETOKEN0123456789',
        AGENT_KEY: 'xSERVETOKEN0123456789x',
      },
      secrets: () => ['SERVETOKEN0123456789'],
      tempRoot: path.join(base, 'tmp'),
      ...(options.scans === undefined ? {} : { scans: options.scans }),
    }),
    run(command, options = {}) {
      return world.sandbox.run({
        command,
        cwd: options.cwd ?? workspace,
        roots: options.roots ?? [workspace],
        sessionId: options.sessionId ?? 'ses_test',
        timeoutMs: options.timeoutMs ?? 60_000,
        outputCapBytes: 1 << 20,
      });
    },
    snapshot: snapshotTree,
    async close() {
      await world.sandbox.dispose();
      await remove();
    },
  };
  return world;
}

/** Runs git's CLI in a folder with no user configuration. */
export function gitIn(folder: string, args: readonly string[]): string {
  return execFileSync('git', ['-C', folder, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();
}
