import { readFile } from 'node:fs/promises';
import { isProcessGone } from '../../lib';

/**
 * The one place the CLI reads the resident core's address and credential from serve.json (read
 * by hand, no schema library: this is on every relayed command's start-up path).
 */
export interface ServeCredential {
  readonly pid: number;
  /** `http://127.0.0.1:PORT`: where the core listens. */
  readonly origin: string;
  readonly token: string;
  /** The version of Vigil that runs it, when serve.json says. */
  readonly version?: string;
  /** A background core (`vigil core run`, started by a command): replaceable, unlike the app or `vigil serve`. */
  readonly isBackground?: boolean;
}

/**
 * What serve.json says: no core, a core to try, or a file that cannot be one (with the reason, for
 * the one stderr line). `pid` and `isStale` (its process is gone) and `isStarting` (it runs but has
 * no address yet) let a command that may start a core tell what it can replace or wait for.
 */
export type CredentialLookup =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'unusable';
      readonly reason: string;
      readonly pid?: number;
      readonly isStale?: boolean;
      readonly isStarting?: boolean;
      readonly isBackground?: boolean;
    }
  | { readonly kind: 'found'; readonly credential: ServeCredential };

/** Reads serve.json: a live core's address and token, or why there is none to relay to. */
export async function readServeCredential(file: string): Promise<CredentialLookup> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
    return {
      kind: 'unusable',
      reason: `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'unusable', reason: `${file} is not valid JSON` };
  }
  const { pid, url, token, version, background } = (typeof value === 'object' && value !== null ? value : {}) as {
    pid?: unknown;
    url?: unknown;
    token?: unknown;
    version?: unknown;
    background?: unknown;
  };
  const isBackground = background === true;
  if (typeof pid !== 'number' || typeof token !== 'string' || token === '')
    return { kind: 'unusable', reason: `${file} does not name a pid and a token` };
  // A zombie (exited, not yet reaped: an orphaned core in a container) is as stale as a dead pid.
  if (await isProcessGone(pid))
    return {
      kind: 'unusable',
      reason: `${file} names pid ${pid}, which is not running (a core that stopped without cleaning up)`,
      pid,
      isStale: true,
      isBackground,
    };
  if (typeof url !== 'string')
    return {
      kind: 'unusable',
      reason: `the Vigil core (pid ${pid}) is still starting`,
      pid,
      isStarting: true,
      isBackground,
    };
  let origin: URL;
  try {
    origin = new URL(url);
  } catch {
    return { kind: 'unusable', reason: `${file} has no valid URL` };
  }
  return {
    kind: 'found',
    credential: {
      pid,
      origin: origin.origin,
      token,
      isBackground,
      ...(typeof version === 'string' ? { version } : {}),
    },
  };
}

/** The request header that presents serve.json's credential to the core. */
export function authorizationHeader(credential: ServeCredential): string {
  return `Bearer ${credential.token}`;
}
