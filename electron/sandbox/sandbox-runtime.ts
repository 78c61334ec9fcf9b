import { realpath } from 'node:fs/promises';
import os from 'node:os';
import { isMainThread } from 'node:worker_threads';
import type { SandboxAskCallback, SandboxManager, SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import { AppError } from '../../shared/errors';
import { shellsExecInPlace } from './engine-command-line';
import { withEngineForksAnswered } from './engine-forks';
import { importEngine } from './engine-import';
import { readDeniesPresent } from './read-denies-present';
import { findOnPath } from './sandbox-availability';
import { isThisMachine } from './this-machine';
import type { NetworkPolicy } from './sandbox-settings';

/**
 * The one process-wide sandbox engine (@anthropic-ai/sandbox-runtime's SandboxManager is a
 * singleton: its network proxies, its mount-point bookkeeping, its configuration). Every
 * CommandSandbox of the process shares it; each command brings its own filesystem profile (the
 * engine's per-call configuration). Wraps run one at a time: the engine reads the process's
 * working directory (it protects the repository there) and its temp variable, which this module
 * sets for the length of one wrap.
 */
type Engine = typeof SandboxManager;

interface EngineState {
  users: number;
  engine?: Engine;
  started?: Promise<Engine>;
  /** bubblewrap and socat as found on PATH when the engine started. */
  tools?: EngineTools;
  /** The network policy and bwrap path last given to the engine. */
  applied?: string;
  network: NetworkPolicy;
}

const state: EngineState = { users: 0, network: { deniedDomains: [] } };
let queue: Promise<unknown> = Promise.resolve();

/** Runs tasks that touch the engine's process-wide state one after another. */
function serialized<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

function deny(reason: string): { allow: false; reason: string } {
  return { allow: false, reason };
}

/** Decides the hosts no configured list decided: any public host unless an allowlist is configured; never this machine. */
const askAboutHost: SandboxAskCallback = ({ host, port }) => {
  const network = state.network;
  if (network.allowedDomains !== undefined) {
    return Promise.resolve(
      deny(
        `${host}:${port} is not in policy.network.allowedDomains of Vigil's config.json; add it there to let agent commands reach it`,
      ),
    );
  }
  if (isThisMachine(host)) {
    return Promise.resolve(
      deny(
        `${host} is this machine: agent commands may not reach its own services (list "${host}:${port}" in policy.network.allowedDomains to allow one)`,
      ),
    );
  }
  return Promise.resolve(true);
};

/** The programs the engine runs, found on PATH once here: named by path, the engine checks them without forking `which` for each. */
interface EngineTools {
  readonly bwrapPath?: string;
  readonly socatPath?: string;
}

/** bubblewrap and socat as found on PATH (Linux). */
async function toolsOnPath(): Promise<EngineTools> {
  if (process.platform !== 'linux') return {};
  const [bwrapPath, socatPath] = await Promise.all([findOnPath('bwrap'), findOnPath('socat')]);
  return { ...(bwrapPath === undefined ? {} : { bwrapPath }), ...(socatPath === undefined ? {} : { socatPath }) };
}

/** The configured bubblewrap over the one on PATH. */
function withBwrap(tools: EngineTools | undefined, bwrapPath: string | undefined): EngineTools {
  return { ...tools, ...(bwrapPath === undefined ? {} : { bwrapPath }) };
}

function engineConfig(network: NetworkPolicy, tools: EngineTools): SandboxRuntimeConfig {
  return {
    network: { allowedDomains: network.allowedDomains ?? [], deniedDomains: network.deniedDomains },
    filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
    // The sandbox runtime's own config: its keys only when set.
    ...tools,
  };
}

async function started(network: NetworkPolicy, bwrapPath: string | undefined): Promise<Engine> {
  state.started ??= (async () => {
    const [{ SandboxManager }, tools] = await Promise.all([importEngine(), toolsOnPath()]);
    state.network = network;
    state.tools = tools;
    await SandboxManager.initialize(engineConfig(network, withBwrap(tools, bwrapPath)), askAboutHost);
    state.applied = JSON.stringify([network, bwrapPath]);
    state.engine = SandboxManager;
    return SandboxManager;
  })();
  try {
    return await state.started;
  } catch (error) {
    state.started = undefined;
    throw error;
  }
}

/** Gives the engine the current network policy (config.json may have changed since the last command). */
function apply(engine: Engine, network: NetworkPolicy, bwrapPath: string | undefined): void {
  const key = JSON.stringify([network, bwrapPath]);
  if (key === state.applied) return;
  engine.updateConfig(engineConfig(network, withBwrap(state.tools, bwrapPath)));
  state.network = network;
  state.applied = key;
}

/** The filesystem part of a command's profile, as the engine takes it. */
export interface WrapProfile {
  readonly denyRead: readonly string[];
  readonly allowWrite: readonly string[];
  readonly denyWrite: readonly string[];
  /** The command's private temp folder. */
  readonly temp: string;
}

/** One command to wrap. */
export interface WrapRequest {
  readonly command: string;
  /** The folder the engine is run from (it protects the repository and shell start-up files there). */
  readonly directory: string;
  readonly profile: WrapProfile;
  readonly network: NetworkPolicy;
  readonly bwrapPath?: string;
}

/** The engine's own default write paths (a read deny at or above one keeps it out), spelled from the home as set and as resolved. */
async function engineWriteDefaults(): Promise<string[]> {
  const defaults = (await importEngine()).getDefaultWritePaths();
  const home = os.homedir();
  const realHome = await realpath(home).catch(() => home);
  if (realHome === home) return defaults;
  return [
    ...defaults,
    ...defaults.flatMap((entry) => (entry.startsWith(`${home}/`) ? [realHome + entry.slice(home.length)] : [])),
  ];
}

/** The shell commands are wrapped for (absolute: the engine looks it up with `which`). */
const shell = '/bin/sh';

function currentDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

/** A wrap the engine refused: the command is never run without its sandbox. */
function profileFailure(error: unknown): AppError {
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : undefined;
  return new AppError(
    'conflict',
    `The sandbox for this command could not be built: ${message.replace(/\.?\s*$/u, '')}. The command was not run; it never runs outside the sandbox. Narrow the workspace roots or policy.sandbox in config.json, or run the command yourself.`,
    {
      sandboxError: code,
    },
  );
}

/**
 * The shell command line that runs `command` in the sandbox with this profile (run it with
 * `/bin/sh -c`). Call `commandEnded()` once it has exited. A profile the engine cannot build
 * (too many mounts, a command too long) rejects with `conflict`.
 */
export function wrapInSandbox(request: WrapRequest): Promise<string> {
  return serialized(async () => {
    const engine = await started(request.network, request.bwrapPath).catch((error: unknown) => {
      throw profileFailure(error);
    });
    try {
      apply(engine, request.network, request.bwrapPath);
    } catch (error) {
      throw new AppError(
        'invalid_request',
        `policy.network in config.json is not usable by the sandbox: ${error instanceof Error ? error.message : String(error)}. Fix the entry; no command runs until then.`,
        { field: 'policy.network' },
      );
    }
    const previous = currentDirectory();
    const previousTemp = process.env['CLAUDE_CODE_TMPDIR'];
    try {
      if (isMainThread) process.chdir(request.directory);
      process.env['CLAUDE_CODE_TMPDIR'] = request.profile.temp;
      const { profile } = request;
      // Read denies not there at all change nothing the engine builds; checked now, alongside the checks below.
      const denyRead = readDeniesPresent(profile.denyRead, engineWriteDefaults);
      denyRead.catch(() => undefined);
      // The engine's `which` of the shell and its scan of the folder it runs from are answered without forking.
      const wrapped = await withEngineForksAnswered(shell, currentDirectory() ?? request.directory, async () =>
        engine.wrapWithSandbox(request.command, shell, {
          filesystem: {
            denyRead: await denyRead,
            allowRead: [],
            allowWrite: [...profile.allowWrite],
            denyWrite: [...profile.denyWrite],
          },
        }),
      );
      return shellsExecInPlace(wrapped, shell);
    } catch (error) {
      throw profileFailure(error);
    } finally {
      if (isMainThread && previous !== undefined) process.chdir(previous);
      if (previousTemp === undefined) delete process.env['CLAUDE_CODE_TMPDIR'];
      else process.env['CLAUDE_CODE_TMPDIR'] = previousTemp;
    }
  });
}

/**
 * Starts the engine (its module graph, network proxies and bridges) now, before the first wrap
 * needs it, so that a one-shot process overlaps that start with its other work. Never rejects: a
 * start that fails is retried by the wrap, which then refuses the command with the reason.
 */
export function warmEngine(network: NetworkPolicy, bwrapPath: string | undefined): Promise<void> {
  return serialized(() => started(network, bwrapPath)).then(
    () => undefined,
    () => undefined,
  );
}

/** Releases what the engine set up for one wrapped command (the mount points of absent denied paths), once it exited. */
export function commandEnded(): void {
  state.engine?.cleanupAfterCommand();
}

/** Counts a user of the engine; it starts with the first command. */
export function acquireEngine(): void {
  state.users += 1;
}

/** Stops the engine (its proxies) when its last user lets go. */
export function releaseEngine(): Promise<void> {
  state.users = Math.max(0, state.users - 1);
  return serialized(async () => {
    if (state.users > 0 || state.started === undefined) return;
    const engine = await state.started.catch(() => undefined);
    state.started = undefined;
    state.engine = undefined;
    state.applied = undefined;
    await engine?.reset();
  });
}
