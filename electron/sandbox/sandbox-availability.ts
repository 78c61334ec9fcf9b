import { access, constants, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Whether agent commands can run in the OS sandbox here, and if not, why and what fixes it. */
export type SandboxStatus =
  | { readonly kind: 'ready'; readonly engine: 'bubblewrap' | 'seatbelt' }
  | { readonly kind: 'unavailable'; readonly reason: string; readonly fix: string };

/** One line for people: the start-up line of `vigil serve`, the approval card, the logs. */
export function describeSandboxStatus(status: SandboxStatus): string {
  if (status.kind === 'ready') return `agent commands run in the OS sandbox (${status.engine})`;
  return `agent commands cannot run in the OS sandbox: ${status.reason}. Every terminal command asks a person until this is fixed: ${status.fix}`;
}

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** The first executable of this name on PATH. */
export async function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  for (const folder of (env['PATH'] ?? '').split(path.delimiter)) {
    if (folder === '') continue;
    const candidate = path.join(folder, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** The command that installs Linux packages on this distribution. */
async function installCommand(packages: readonly string[]): Promise<string> {
  const release = await readFile('/etc/os-release', 'utf8').catch(() => '');
  const ids = (release.match(/^ID(_LIKE)?=.*$/gmu) ?? []).join(' ');
  if (/fedora|rhel|centos/u.test(ids)) return `sudo dnf install -y ${packages.join(' ')}`;
  if (/arch/u.test(ids)) return `sudo pacman -S --needed ${packages.join(' ')}`;
  if (/suse/u.test(ids)) return `sudo zypper install -y ${packages.join(' ')}`;
  return `sudo apt-get install -y ${packages.join(' ')}`;
}

/** Linux: bubblewrap (or the configured binary), socat and ripgrep must be there. */
async function linuxTools(bwrapPath: string | undefined, env: NodeJS.ProcessEnv): Promise<SandboxStatus | undefined> {
  if (bwrapPath !== undefined && !(await isExecutable(bwrapPath))) {
    return {
      kind: 'unavailable',
      reason: `policy.sandbox.bwrapPath in config.json names ${bwrapPath}, which is not an executable bubblewrap`,
      fix: `install bubblewrap (${await installCommand(['bubblewrap'])}) and remove policy.sandbox.bwrapPath from config.json, or point it at the bwrap binary`,
    };
  }
  const missing: [string, string][] = [];
  if (bwrapPath === undefined && (await findOnPath('bwrap', env)) === undefined) missing.push(['bwrap', 'bubblewrap']);
  if ((await findOnPath('socat', env)) === undefined) missing.push(['socat', 'socat']);
  if ((await findOnPath('rg', env)) === undefined) missing.push(['rg', 'ripgrep']);
  if (missing.length === 0) return undefined;
  return {
    kind: 'unavailable',
    reason: `${missing.map(([program, name]) => (program === name ? program : `${name} (${program})`)).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed`,
    fix: await installCommand(missing.map(([, name]) => name)),
  };
}

/**
 * What the platform lacks for the sandbox, found without starting it: Windows has no sandbox
 * Vigil can drive; Linux needs bubblewrap, socat and ripgrep; macOS needs ripgrep (Seatbelt is
 * built in). Undefined when nothing is missing (a real sandboxed command then proves it starts).
 */
export async function missingSandboxTools(
  platform: NodeJS.Platform,
  bwrapPath: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SandboxStatus | undefined> {
  if (platform === 'linux') return linuxTools(bwrapPath, env);
  if (platform === 'darwin') {
    if ((await findOnPath('rg', env)) !== undefined) return undefined;
    return { kind: 'unavailable', reason: 'ripgrep (rg) is not installed', fix: 'brew install ripgrep' };
  }
  if (platform === 'win32') {
    return {
      kind: 'unavailable',
      reason: 'Vigil has no OS sandbox for agent commands on Windows yet',
      fix: 'run Vigil inside WSL 2 (wsl --install), where bubblewrap works',
    };
  }
  return {
    kind: 'unavailable',
    reason: `Vigil has no OS sandbox for agent commands on ${platform}`,
    fix: 'run Vigil on Linux (with bubblewrap) or macOS',
  };
}

async function readNumber(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const value = text === undefined ? Number.NaN : Number(text.trim());
  return Number.isFinite(value) ? value : undefined;
}

/** Why a sandbox that has its tools still failed to start a command, and the setting that fixes it (Linux: user namespaces). */
export async function startFailure(platform: NodeJS.Platform, output: string): Promise<SandboxStatus> {
  const said =
    output
      .trim()
      .split('\n')
      .find((line) => line.trim() !== '') ?? 'no message';
  if (platform === 'linux') {
    if ((await readNumber('/proc/sys/kernel/apparmor_restrict_unprivileged_userns')) === 1) {
      return {
        kind: 'unavailable',
        reason: `bubblewrap cannot create a user namespace, because AppArmor restricts them (${said})`,
        fix: 'sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
      };
    }
    if ((await readNumber('/proc/sys/kernel/unprivileged_userns_clone')) === 0) {
      return {
        kind: 'unavailable',
        reason: `bubblewrap cannot create a user namespace, because unprivileged ones are disabled (${said})`,
        fix: 'sudo sysctl -w kernel.unprivileged_userns_clone=1',
      };
    }
    if ((await readNumber('/proc/sys/user/max_user_namespaces')) === 0) {
      return {
        kind: 'unavailable',
        reason: `bubblewrap cannot create a user namespace, because user.max_user_namespaces is 0 (${said})`,
        fix: 'sudo sysctl -w user.max_user_namespaces=15000',
      };
    }
    return {
      kind: 'unavailable',
      reason: `a sandboxed test command failed to start (${said})`,
      fix: 'check that bubblewrap works: bwrap --ro-bind / / --unshare-user --unshare-pid true',
    };
  }
  return {
    kind: 'unavailable',
    reason: `a sandboxed test command failed to start (${said})`,
    fix: 'check that sandbox-exec works: sandbox-exec -p "(version 1)(allow default)" true',
  };
}
