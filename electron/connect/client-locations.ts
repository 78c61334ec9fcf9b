import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ConnectClientId } from '../../shared/connect/connect-config';
import { isDirectory } from '../files/is-directory';
import { hermesHome } from '../hermes/hermes-home';

/** The configuration file `vigil connect --write` merges into, for each client. */
export function configFileOf(
  client: ConnectClientId,
  places: { readonly project: string; readonly hermesHome: string; readonly codexHome?: string },
): string {
  switch (client) {
    case 'codex':
      return path.join(places.codexHome ?? path.join(os.homedir(), '.codex'), 'config.toml');
    case 'hermes':
      return path.join(places.hermesHome, 'config.yaml');
    case 'claude-code':
      return path.join(places.project, '.mcp.json');
    case 'gemini-cli':
      return path.join(places.project, '.gemini', 'settings.json');
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

/** Codex's home: `$CODEX_HOME` when set, else `~/.codex` (of HOME as the environment gives it). */
export function codexHomeOf(env: NodeJS.ProcessEnv): string {
  const given = (env['CODEX_HOME'] ?? '').trim();
  return given !== '' ? path.resolve(given) : path.join(env['HOME'] ?? os.homedir(), '.codex');
}
