import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ConnectClientId } from '../../shared/connect/connect-config';
import { isDirectory } from '../files/is-directory';
import { hermesHome } from '../hermes/hermes-home';

/** The configuration file `vigil connect --write` merges into, for each client. */
export function configFileOf(
  client: ConnectClientId,
  places: { readonly project: string; readonly hermesHome: string },
): string {
  switch (client) {
    case 'hermes':
      return path.join(places.hermesHome, 'config.yaml');
    case 'claude-code':
      return path.join(places.project, '.mcp.json');
    case 'cursor':
      return path.join(places.project, '.cursor', 'mcp.json');
    case 'vscode':
      return path.join(places.project, '.vscode', 'mcp.json');
  }
}

/**
 * The Hermes home Hermes itself is using: `$HERMES_HOME` when set, else the profile named in
 * `~/.hermes/active_profile` (`profiles/<name>`, when that folder exists), else `~/.hermes`.
 */
export async function activeHermesHome(env: NodeJS.ProcessEnv, home = os.homedir()): Promise<string> {
  const root = hermesHome(env, home);
  if ((env['HERMES_HOME'] ?? '').trim() !== '') return root;
  const name = (await readFile(path.join(root, 'active_profile'), 'utf8').catch(() => '')).trim();
  if (name === '' || name === 'default' || name.includes('/') || name.includes('\\') || name.startsWith('.'))
    return root;
  const profile = path.join(root, 'profiles', name);
  return (await isDirectory(profile)) ? profile : root;
}
