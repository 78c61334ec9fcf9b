import { readFile } from 'node:fs/promises';

/** Whether `VIGIL_NO_CORE` asks every command to work in-process (`1`, `true` or `yes`). */
export function isCoreRefusedByEnv(env: NodeJS.ProcessEnv): boolean {
  const value = env['VIGIL_NO_CORE']?.trim().toLowerCase();
  return value === '1' || value === 'true' || value === 'yes';
}

/**
 * Whether config.json turns the background core off (`"core": { "autoStart": false }`). Read by
 * hand, only when no core runs: it is on the start-up path of the command that would start one. A
 * file that cannot be read or parsed leaves the default (on); the core itself reports what is wrong.
 */
export async function isAutoStartOffInConfig(configFile: string): Promise<boolean> {
  const text = await readFile(configFile, 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  try {
    const document = JSON.parse(text) as { core?: { autoStart?: unknown } } | null;
    return document?.core?.autoStart === false;
  } catch {
    return false;
  }
}

/** Whether this call may start a background core: a real `vigil` process, not `--local`, not refused by env or config. */
export async function mayAutoStart(options: {
  readonly isAllowed: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly configFile: string;
}): Promise<boolean> {
  if (!options.isAllowed || isCoreRefusedByEnv(options.env)) return false;
  return !(await isAutoStartOffInConfig(options.configFile));
}
