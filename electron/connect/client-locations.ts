import os from 'node:os';
import path from 'node:path';
import type { ConnectClientId } from '../../shared/connect/connect-config';

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

/** Codex's home: `$CODEX_HOME` when set, else `~/.codex` (of HOME as the environment gives it). */
export function codexHomeOf(env: NodeJS.ProcessEnv): string {
  const given = (env['CODEX_HOME'] ?? '').trim();
  return given !== '' ? path.resolve(given) : path.join(env['HOME'] ?? os.homedir(), '.codex');
}
