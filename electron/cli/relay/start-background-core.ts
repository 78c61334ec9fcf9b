import { spawn } from 'node:child_process';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { vigilInvocation, vigilVersion, vigilPaths, stopProcess } from '../../lib';
import { readServeCredential, type CredentialLookup, type ServeCredential } from './serve-credential';

/** The file a background core's own output goes to (its structured log is beside it, in logs/). */
export function coreLogFile(home: string): string {
  return path.join(vigilPaths(home).logs, 'core.log');
}

/** One background core process started by this command. */
interface Started {
  readonly pid: number | undefined;
  exit?: string;
}

/** Starts `vigil core run` detached from this process, its output appended to logs/core.log. */
async function spawnCore(home: string, env: NodeJS.ProcessEnv): Promise<Started> {
  const logFile = coreLogFile(home);
  await mkdir(path.dirname(logFile), { recursive: true, mode: 0o700 });
  const log = await open(logFile, 'a', 0o600);
  try {
    const invocation = await vigilInvocation(env);
    const child = spawn(invocation.command, [...invocation.args, 'core', 'run'], {
      cwd: home,
      env: { ...env, VIGIL_HOME: home },
      detached: true,
      stdio: ['ignore', log.fd, log.fd],
      windowsHide: true,
    });
    const started: Started = { pid: child.pid };
    child.once('error', (error) => (started.exit = `it could not be started (${error.message})`));
    child.once('exit', (code, signal) => (started.exit = `it exited (${signal ?? `code ${String(code)}`})`));
    // This command may end before the core does: nothing of the core keeps it alive.
    child.unref();
    return started;
  } finally {
    await log.close();
  }
}

/** What to do about a background core serve.json names: keep it, or why to replace it. */
function replacementReason(lookup: CredentialLookup): string | undefined {
  if (lookup.kind === 'found') {
    const { credential } = lookup;
    if (credential.isBackground === true && credential.version !== vigilVersion)
      return `the background core (pid ${credential.pid}) runs Vigil ${credential.version ?? '(unknown)'}, this is ${vigilVersion}`;
    return undefined;
  }
  if (lookup.kind === 'unusable' && lookup.isStale === true) return lookup.reason;
  return undefined;
}

/** How one attempt to get a core stands. */
interface Attempt {
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  readonly say: (line: string) => void;
  started: Started | undefined;
  spawns: number;
  hasReplaced: boolean;
  /** Cores this command stopped: serve.json may still name one for a moment (exited, not yet reaped). */
  readonly stopped: Set<number>;
}

/** The pid serve.json names, if any. */
function pidOf(lookup: CredentialLookup): number | undefined {
  if (lookup.kind === 'found') return lookup.credential.pid;
  return lookup.kind === 'unusable' ? lookup.pid : undefined;
}

/** One look at serve.json: a core to use, a reason to give up, or undefined to look again soon. */
async function step(attempt: Attempt): Promise<ServeCredential | { readonly failure: string } | undefined> {
  const read = await readServeCredential(vigilPaths(attempt.home).serveInfo);
  const pid = pidOf(read);
  const lookup: CredentialLookup =
    pid !== undefined && attempt.stopped.has(pid) ? { kind: 'unusable', reason: 'stopped', pid, isStale: true } : read;
  const reason = attempt.hasReplaced ? undefined : replacementReason(lookup);
  if (reason !== undefined) {
    attempt.hasReplaced = true;
    attempt.say(`replacing a stale background core: ${reason}.`);
    if (lookup.kind === 'found') {
      if (!(await stopProcess(lookup.credential.pid, 5_000)))
        return { failure: `the old core (pid ${lookup.credential.pid}) did not stop` };
      attempt.stopped.add(lookup.credential.pid);
    }
  }
  if (lookup.kind === 'found' && reason === undefined) return lookup.credential;
  // Someone's core (this command's, or the one that won the election) is still starting: wait for it.
  if (lookup.kind === 'unusable' && lookup.isStarting === true) return undefined;
  if (lookup.kind === 'unusable' && lookup.isStale !== true && reason === undefined) return { failure: lookup.reason };
  if (attempt.started !== undefined && attempt.started.exit === undefined) return undefined;
  if (attempt.spawns >= 2)
    return {
      failure: `${attempt.started?.exit ?? 'it stopped'} before it was ready (see ${coreLogFile(attempt.home)})`,
    };
  attempt.spawns += 1;
  try {
    attempt.started = await spawnCore(attempt.home, attempt.env);
  } catch (error) {
    return { failure: `it could not be started (${error instanceof Error ? error.message : String(error)})` };
  }
  return undefined;
}

/**
 * A background core for this data folder, started now if none runs: `vigil core run`, detached,
 * which claims serve.json (two commands starting one at once elect one by that claim: the loser
 * exits, both relay to the winner). A stale core (its pid gone, another version) is replaced,
 * saying so in one line. Undefined, with one line saying why, when no core is ready within
 * `waitMs`: the command then works in-process.
 */
export async function startBackgroundCore(options: {
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  readonly say: (line: string) => void;
  readonly waitMs: number;
  /** The core just replaced (and said so): a stale serve.json it left costs no second line. */
  readonly replaced?: number;
  /** `vigil core start`: nothing works in-process after a failure, so the line does not say so. */
  readonly isExplicit?: boolean;
}): Promise<ServeCredential | undefined> {
  const tail = options.isExplicit === true ? '.' : '; working in-process.';
  const attempt: Attempt = {
    ...options,
    started: undefined,
    spawns: 0,
    hasReplaced: options.replaced !== undefined,
    stopped: new Set(options.replaced === undefined ? [] : [options.replaced]),
  };
  const until = Date.now() + options.waitMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 50)) {
    const outcome = await step(attempt);
    if (outcome !== undefined && 'failure' in outcome) {
      options.say(`could not start a background Vigil core: ${outcome.failure}${tail}`);
      return undefined;
    }
    if (outcome !== undefined) return outcome;
    if (Date.now() >= until) {
      options.say(
        `a background Vigil core did not get ready within ${Math.round(options.waitMs / 1000)} s (see ${coreLogFile(options.home)})${tail}`,
      );
      return undefined;
    }
    await sleep(pause);
  }
}

/**
 * Stops a background core that cannot be reached (a wrong token, no answer) so a new one can take
 * its place; says so in one line. Resolves whether it is gone.
 */
export async function replaceUnreachableCore(
  target: ServeCredential,
  reason: string,
  say: (line: string) => void,
): Promise<boolean> {
  say(`replacing the background core (pid ${target.pid}): ${reason}.`);
  return stopProcess(target.pid, 5_000);
}
