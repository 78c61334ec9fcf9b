import type { Result } from '../../../shared/result';
import { vigilPaths, vigilVersion } from '../../lib';
import { mayAutoStart, type AutoStartSettings } from './auto-start-policy';
import { relayCall, type RelayCallOptions } from './relay-client';
import { readServeCredential, type CredentialLookup, type ServeCredential } from './serve-credential';

/** Where a line about the choice goes (stderr, with the caller's own prefix). */
export type SayLine = (line: string) => void;

/** Where a command's calls may go: its data folder, and whether it may start a background core. */
export interface CoreChoice {
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  /** A real `vigil` process, not `--local` (tests that run commands in-process never start a core). */
  readonly mayStart: boolean;
  /** At most how long to wait for a core to start (`core.startTimeoutSeconds` bounds it too). */
  readonly maxWaitMs?: number;
}

/** How long to wait for a started core: config.json's timeout, within the caller's bound. */
function waitMs(choice: CoreChoice, settings: AutoStartSettings): number {
  return Math.min(settings.startTimeoutMs, choice.maxWaitMs ?? Number.POSITIVE_INFINITY);
}

/** A background core of another version of Vigil: replaced (the app and `vigil serve` are used whatever their version). */
function isOtherVersion(credential: ServeCredential): boolean {
  return credential.isBackground === true && credential.version !== vigilVersion;
}

/** Whether serve.json, as read, calls for starting (or replacing) a background core. */
function wantsStart(lookup: CredentialLookup): boolean {
  if (lookup.kind === 'none') return true;
  if (lookup.kind === 'found') return isOtherVersion(lookup.credential);
  return lookup.isStale === true || lookup.isStarting === true;
}

/** serve.json's core, or none (work in-process): a serve.json that cannot be used costs one line saying why. */
function namedCore(lookup: CredentialLookup, say: SayLine): ServeCredential | undefined {
  if (lookup.kind === 'unusable') say(`not relaying to a Vigil core: ${lookup.reason}; working in-process.`);
  return lookup.kind === 'found' ? lookup.credential : undefined;
}

/**
 * The core a command relays to: serve.json's, else (when it may) a background core started now
 * (start-background-core.ts), else none: the command works in-process. Only the path that starts
 * a core loads more than the relay client.
 */
export async function chooseCore(
  choice: CoreChoice,
  say: SayLine,
  known?: CredentialLookup,
): Promise<ServeCredential | undefined> {
  const paths = vigilPaths(choice.home);
  const lookup = known ?? (await readServeCredential(paths.serveInfo));
  if (lookup.kind === 'found' && !isOtherVersion(lookup.credential)) return lookup.credential;
  const settings = wantsStart(lookup)
    ? await mayAutoStart({ isAllowed: choice.mayStart, env: choice.env, configFile: paths.config })
    : undefined;
  if (settings === undefined) return namedCore(lookup, say);
  const { startBackgroundCore } = await import('./start-background-core');
  return startBackgroundCore({ home: choice.home, env: choice.env, say, waitMs: waitMs(choice, settings) });
}

/**
 * One call relayed to the chosen core: its answer, or undefined (said in one line) when no core
 * took it and the caller works in-process. A background core that cannot be reached (a wrong
 * token, no answer) is replaced once, saying so, and the call goes to its successor.
 */
export async function relayToCore(
  choice: CoreChoice,
  target: ServeCredential,
  call: { readonly channel: string; readonly payload: unknown; readonly options?: RelayCallOptions },
  say: SayLine,
): Promise<{ readonly result: Result<unknown> | undefined; readonly target: ServeCredential | undefined }> {
  let current = target;
  for (let attempt = 0; ; attempt += 1) {
    const outcome = await relayCall(current, call.channel, call.payload, call.options);
    if (outcome.kind === 'answered') return { result: outcome.result, target: current };
    const settings =
      attempt === 0 && current.isBackground === true
        ? await mayAutoStart({
            isAllowed: choice.mayStart,
            env: choice.env,
            configFile: vigilPaths(choice.home).config,
          })
        : undefined;
    if (settings === undefined) {
      say(`could not reach the Vigil core (pid ${current.pid}): ${outcome.reason}; working in-process.`);
      return { result: undefined, target: undefined };
    }
    const { replaceUnreachableCore, startBackgroundCore } = await import('./start-background-core');
    if (!(await replaceUnreachableCore(current, outcome.reason, say))) {
      say(`the background core (pid ${current.pid}) did not stop; working in-process.`);
      return { result: undefined, target: undefined };
    }
    const next = await startBackgroundCore({
      home: choice.home,
      env: choice.env,
      say,
      waitMs: waitMs(choice, settings),
      replaced: current.pid,
    });
    if (next === undefined) return { result: undefined, target: undefined };
    current = next;
  }
}
