import { readFile } from 'node:fs/promises';

/** Whether `VIGIL_NO_CORE` asks every command to work in-process (`1`, `true` or `yes`). */
export function isCoreRefusedByEnv(env: NodeJS.ProcessEnv): boolean {
  const value = env['VIGIL_NO_CORE']?.trim().toLowerCase();
  return value === '1' || value === 'true' || value === 'yes';
}

/** What a command that finds no core reads of config.json's `core` section. */
export interface AutoStartSettings {
  readonly isOn: boolean;
  /** How long to wait for a started core (`core.startTimeoutSeconds`, default 10 s). */
  readonly startTimeoutMs: number;
}

const defaultStartTimeoutMs = 10_000;

/**
 * config.json's `core.autoStart` and `core.startTimeoutSeconds`. Read by hand, only when no core
 * runs: it is on the start-up path of the command that would start one. A file or value that
 * cannot be used leaves the defaults (on, 10 s); the core itself reports what is wrong with it.
 */
export async function readAutoStartSettings(configFile: string): Promise<AutoStartSettings> {
  const defaults = { isOn: true, startTimeoutMs: defaultStartTimeoutMs };
  const text = await readFile(configFile, 'utf8').catch(() => undefined);
  if (text === undefined) return defaults;
  try {
    const document = JSON.parse(text) as { core?: { autoStart?: unknown; startTimeoutSeconds?: unknown } } | null;
    const seconds = document?.core?.startTimeoutSeconds;
    return {
      isOn: document?.core?.autoStart !== false,
      startTimeoutMs:
        typeof seconds === 'number' && seconds > 0 && seconds <= 300 ? seconds * 1000 : defaultStartTimeoutMs,
    };
  } catch {
    return defaults;
  }
}

/**
 * Whether this call may start a background core (a real `vigil` process, not `--local`, not
 * refused by env or config), and how long it may wait for one; undefined when it may not.
 */
export async function mayAutoStart(options: {
  readonly isAllowed: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly configFile: string;
}): Promise<AutoStartSettings | undefined> {
  if (!options.isAllowed || isCoreRefusedByEnv(options.env)) return undefined;
  const settings = await readAutoStartSettings(options.configFile);
  return settings.isOn ? settings : undefined;
}
