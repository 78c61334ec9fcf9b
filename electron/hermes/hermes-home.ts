import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Where one Hermes home keeps what Vigil reads. */
export interface HermesHomePaths {
  readonly home: string;
  /** `checkpoints/`: the shared store (`store/`) and pre-v2 shadow repos (`<hash16>/`, `legacy-<ts>/<hash16>/`). */
  readonly checkpoints: string;
  /** `memories/`: MEMORY.md and USER.md with their `.lock` sidecars. */
  readonly memories: string;
}

/** Expands a leading `~` (Hermes users write `HERMES_HOME=~/...` in shell files that do not expand it). */
function expandHome(value: string, home: string): string {
  if (value === '~') return home;
  return /^~[\\/]/.test(value) ? path.join(home, value.slice(2)) : value;
}

/**
 * Hermes's home as Hermes itself finds it: `$HERMES_HOME` when set (trimmed), else the platform
 * default (`~/.hermes` plus `$HERMES_DATA_DIR_SUFFIX`; `%LOCALAPPDATA%\hermes` on Windows).
 */
export function hermesHome(
  env: NodeJS.ProcessEnv,
  home = os.homedir(),
  platform: NodeJS.Platform = process.platform,
): string {
  const fromEnv = (env['HERMES_HOME'] ?? '').trim();
  if (fromEnv !== '') return path.resolve(expandHome(fromEnv, home));
  const suffix = env['HERMES_DATA_DIR_SUFFIX'] ?? '';
  if (platform === 'win32') {
    const localAppData = (env['LOCALAPPDATA'] ?? '').trim();
    return path.join(localAppData !== '' ? localAppData : path.join(home, 'AppData', 'Local'), `hermes${suffix}`);
  }
  return path.join(home, `.hermes${suffix}`);
}

/** A Hermes profile id as Hermes stores it on disk (`profiles/<id>`). */
const profileIdPattern = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * The profile `<root>/active_profile` names (Hermes's sticky `hermes profile use`), or undefined
 * for the default profile, a missing or unreadable file, or a name that is not a profile id.
 */
export async function activeProfileName(root: string): Promise<string | undefined> {
  const text = await readFile(path.join(root, 'active_profile'), 'utf8').catch(() => '');
  const name = text.trim().toLowerCase();
  return name === '' || name === 'default' || !profileIdPattern.test(name) ? undefined : name;
}

/**
 * The Hermes home the Hermes CLI runs in, as its memory tool sees it: `$HERMES_HOME` when set;
 * otherwise the profile named in `~/.hermes/active_profile` (`~/.hermes/profiles/<name>`, which
 * the CLI exports as HERMES_HOME before any tool runs); otherwise the default home.
 */
export async function activeHermesHome(
  env: NodeJS.ProcessEnv,
  home = os.homedir(),
  platform: NodeJS.Platform = process.platform,
): Promise<string> {
  const root = hermesHome(env, home, platform);
  if ((env['HERMES_HOME'] ?? '').trim() !== '') return root;
  const profile = await activeProfileName(root);
  return profile === undefined ? root : path.join(root, 'profiles', profile);
}

/** The paths inside one Hermes home. */
export function hermesHomePaths(home: string): HermesHomePaths {
  return { home, checkpoints: path.join(home, 'checkpoints'), memories: path.join(home, 'memories') };
}

/**
 * Every Hermes home whose checkpoints Vigil shows: the one the environment names, and the named
 * profiles under it (`profiles/<name>`, each a home of its own), so a profile's checkpoints appear
 * without configuration even when Vigil runs without that profile's `HERMES_HOME`.
 */
export async function hermesHomes(
  env: NodeJS.ProcessEnv,
  home = os.homedir(),
  platform: NodeJS.Platform = process.platform,
): Promise<readonly HermesHomePaths[]> {
  const primary = hermesHome(env, home, platform);
  const profiles = await readdir(path.join(primary, 'profiles'), { withFileTypes: true }).catch(() => []);
  const named = profiles
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => path.join(primary, 'profiles', entry.name))
    .sort();
  return [primary, ...named].map(hermesHomePaths);
}
