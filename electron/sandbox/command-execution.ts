import { engineLaunch } from './engine-command-line';
import { runTerminalCommand, type TerminalResult } from './terminal/run-terminal-command';
import { acquireEngine, commandEnded, releaseEngine, warmEngine, wrapInSandbox } from './sandbox-runtime';
import type { Logger } from '../logging';
import { forgetPlaceholders, placePlaceholders } from './mount-placeholders';
import { recoverPlaceholders } from './placeholder-record';
import { shellPwd } from './shell-pwd';
import type { NetworkPolicy } from './sandbox-settings';
import type { SpawnRequest } from './spawn-protocol';

/**
 * Runs one agent command where it is called (in the spawn server): wrapped by the sandbox engine
 * when the request says so, stdout and stderr captured up to the cap, the process tree killed on
 * timeout or abort, the engine's mount points released once it exited. The one path every agent
 * command takes, sandboxed or not. `onFinished`, when given, is told a sandboxed command's result
 * as soon as it exited, before the mount points are released (synchronously, right after it: no
 * other wrap of this process can come in between); the returned promise settles once they are.
 */
export async function executeCommand(
  request: SpawnRequest,
  signal: AbortSignal,
  onSpawned?: (pid: number) => void,
  onFinished?: (result: TerminalResult) => void,
): Promise<TerminalResult> {
  const base = {
    command: request.command,
    cwd: request.cwd,
    env: request.env,
    timeoutMs: request.timeoutMs,
    outputCapBytes: request.outputCapBytes,
    signal,
    ...(onSpawned === undefined ? {} : { onSpawned }),
  };
  const { wrap } = request;
  if (wrap === undefined) return runTerminalCommand(base);
  // The mount points of absent protected paths are made (and recorded) here, not by bubblewrap: see mount-placeholders.ts.
  const placement =
    wrap.placeholderRecords === undefined || process.platform !== 'linux'
      ? undefined
      : await placePlaceholders(wrap.allowWrite, wrap.denyWrite, wrap.placeholderRecords);
  let wrapped: string;
  try {
    wrapped = await wrapInSandbox({
      command: request.command,
      directory: wrap.directory,
      profile: {
        denyRead: wrap.denyRead,
        allowWrite: wrap.allowWrite,
        denyWrite: placement?.denyWrite ?? wrap.denyWrite,
        temp: wrap.temp,
      },
      network: wrap.network,
      ...(wrap.bwrapPath === undefined ? {} : { bwrapPath: wrap.bwrapPath }),
    });
  } catch (error) {
    await placement?.release();
    throw error;
  }
  try {
    const launch = engineLaunch(wrapped, '/bin/sh');
    // The shell that no longer runs first would have set PWD (the sandbox's own shells keep it): as it would.
    const env =
      launch.file === '/bin/sh' ? base.env : { ...base.env, PWD: await shellPwd(base.env['PWD'], request.cwd) };
    const result = await runTerminalCommand({ ...base, env, launch });
    onFinished?.(result);
    return result;
  } finally {
    commandEnded();
    await placement?.release();
  }
}

/** What starts agent commands for a CommandSandbox: the spawn server, or this process itself. */
export interface CommandSpawner {
  run(request: SpawnRequest, signal?: AbortSignal): Promise<TerminalResult>;
  /** Settles once the sandbox of every command already answered is released (its mount points gone). */
  released?(): Promise<void>;
  /** The process that forks the commands. */
  pid(): Promise<number | undefined>;
  /** Starts the sandbox engine ahead of a command that is about to be wrapped (where it runs in this process). */
  warm?(network: NetworkPolicy, bwrapPath: string | undefined): void;
  dispose(): Promise<void>;
}

/**
 * Starts the sandbox engine of a spawner that forks commands from this process (a one-shot
 * command), so that its proxies and bridges start while the call is checked, logged and
 * checkpointed. A spawn server starts its own engine: there this does nothing.
 */
export function warmSpawner(
  spawner: CommandSpawner,
  settings: () => Promise<{ readonly network: NetworkPolicy; readonly sandbox: { readonly bwrapPath?: string } }>,
): void {
  if (spawner.warm === undefined) return;
  settings().then(
    (current) => spawner.warm?.(current.network, current.sandbox.bwrapPath),
    () => undefined,
  );
}

/**
 * Starts agent commands from this process: for one-shot CLI commands, which are small and short,
 * where starting a spawn server would cost a Node start-up per call and save nothing.
 */
export class InProcessSpawner implements CommandSpawner {
  #hasEngine = false;
  #isDisposed = false;
  /** The removal of the placeholders a stopped process left (see SpawnServer), before this one's first command. */
  readonly #recovered: Promise<void>;

  constructor(placeholderRecords?: string, logger?: Logger) {
    this.#recovered =
      placeholderRecords === undefined || logger === undefined
        ? Promise.resolve()
        : recoverPlaceholders(placeholderRecords, logger);
  }

  released(): Promise<void> {
    return this.#recovered;
  }

  run(request: SpawnRequest, signal?: AbortSignal): Promise<TerminalResult> {
    if (request.wrap !== undefined) this.#acquire();
    return executeCommand(request, signal ?? new AbortController().signal);
  }

  /** The engine is this process's: it starts now, and `dispose` stops it even if no command ran. */
  warm(network: NetworkPolicy, bwrapPath: string | undefined): void {
    // Settings read after `dispose` start nothing: nobody would stop the engine then.
    if (this.#isDisposed) return;
    this.#acquire();
    void warmEngine(network, bwrapPath);
  }

  #acquire(): void {
    if (this.#hasEngine) return;
    acquireEngine();
    this.#hasEngine = true;
  }

  pid(): Promise<number | undefined> {
    return Promise.resolve(process.pid);
  }

  async dispose(): Promise<void> {
    this.#isDisposed = true;
    await forgetPlaceholders();
    if (!this.#hasEngine) return;
    this.#hasEngine = false;
    await releaseEngine();
  }
}
