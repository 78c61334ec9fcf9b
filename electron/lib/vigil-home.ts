import { mkdir } from 'node:fs/promises';
import path from 'node:path';

/** Where every part of Vigil keeps its data; see the README's "Where data lives". */
export interface VigilPaths {
  readonly home: string;
  readonly checkpoints: string;
  readonly sessions: string;
  readonly memories: string;
  readonly logs: string;
  readonly config: string;
  readonly serveInfo: string;
  /** The agents' credentials (mode 0600): per client, stable across restarts, revocable. */
  readonly agentCredentials: string;
  /** What `vigil hook` remembers of each agent session between its events. */
  readonly hooks: string;
}

/**
 * The user's home folder, as `os.homedir()` gives it: on POSIX that is `$HOME` when set, so node:os
 * (a module every relayed command and hook would load for this alone) loads only when it is not.
 */
function homeFolder(): string {
  const home = process.platform === 'win32' ? undefined : process.env['HOME'];
  return home !== undefined && home !== '' ? home : process.getBuiltinModule('node:os').homedir();
}

/**
 * The data folder: `VIGIL_HOME` when set, else the given default (Electron's userData in the app,
 * `~/.vigil` for the CLI). Relative values are resolved against the current directory.
 */
export function resolveVigilHome(env: NodeJS.ProcessEnv, fallback?: string): string {
  const fromEnv = env['VIGIL_HOME'];
  if (fromEnv !== undefined && fromEnv !== '') return path.resolve(fromEnv);
  return path.resolve(fallback ?? path.join(homeFolder(), '.vigil'));
}

/** The paths inside a data folder. */
export function vigilPaths(home: string): VigilPaths {
  return {
    home,
    checkpoints: path.join(home, 'checkpoints'),
    sessions: path.join(home, 'sessions'),
    memories: path.join(home, 'memories'),
    logs: path.join(home, 'logs'),
    config: path.join(home, 'config.json'),
    serveInfo: path.join(home, 'serve.json'),
    agentCredentials: path.join(home, 'agent-credentials.json'),
    hooks: path.join(home, 'hooks'),
  };
}

/** Creates the data folder (mode 0700: it holds tokens and copies of users' files). */
export async function ensureVigilHome(home: string): Promise<VigilPaths> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  return vigilPaths(home);
}
