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

/** serve.json as read: its text, or why it could not be read. */
export type ServeFileRead = { readonly text: string } | { readonly error: NodeJS.ErrnoException };

/** serve.json's fields once they name a pid and a token (the pid not yet checked). */
interface NamedCore {
  readonly kind: 'named';
  readonly pid: number;
  readonly url: unknown;
  readonly token: string;
  readonly version: unknown;
  readonly isBackground: boolean;
}

/** What serve.json's bytes say before its pid is checked: a lookup already, or the core it names. */
function serveFields(file: string, read: ServeFileRead): Exclude<CredentialLookup, { kind: 'found' }> | NamedCore {
  if ('error' in read) {
    if (read.error.code === 'ENOENT') return { kind: 'none' };
    return { kind: 'unusable', reason: `${file} cannot be read (${read.error.code ?? String(read.error)})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(read.text);
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
  if (typeof pid !== 'number' || typeof token !== 'string' || token === '')
    return { kind: 'unusable', reason: `${file} does not name a pid and a token` };
  return { kind: 'named', pid, url, token, version, isBackground: background === true };
}

/** The lookup of a serve.json that names a core, once it is known whether that core's process is gone. */
function namedLookup(file: string, named: NamedCore, isGone: boolean): CredentialLookup {
  const { pid, url, token, version, isBackground } = named;
  // A zombie (exited, not yet reaped: an orphaned core in a container) is as stale as a dead pid.
  if (isGone)
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

/**
 * serve.json as read, to a lookup, `isGone` telling whether the pid it names has exited (asked only
 * when it names one): how the executable's CommonJS entry reads it at once (cli/relay-entry.ts).
 */
export function serveLookupOf(file: string, read: ServeFileRead, isGone: (pid: number) => boolean): CredentialLookup {
  const fields = serveFields(file, read);
  return fields.kind === 'named' ? namedLookup(file, fields, isGone(fields.pid)) : fields;
}

/** Reads serve.json: a live core's address and token, or why there is none to relay to. */
export async function readServeCredential(file: string): Promise<CredentialLookup> {
  const read: ServeFileRead = await readFile(file, 'utf8').then(
    (text) => ({ text }),
    (error: unknown) => ({ error: error as NodeJS.ErrnoException }),
  );
  const fields = serveFields(file, read);
  return fields.kind === 'named' ? namedLookup(file, fields, await isProcessGone(fields.pid)) : fields;
}

/** The request header that presents serve.json's credential to the core. */
export function authorizationHeader(credential: ServeCredential): string {
  return `Bearer ${credential.token}`;
}
