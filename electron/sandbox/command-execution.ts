import { runTerminalCommand, type TerminalResult } from './terminal/run-terminal-command';
import { acquireEngine, commandEnded, releaseEngine, wrapInSandbox } from './sandbox-runtime';
import type { SpawnRequest } from './spawn-protocol';

/**
 * Runs one agent command where it is called (in the spawn server): wrapped by the sandbox engine
 * when the request says so, stdout and stderr captured up to the cap, the process tree killed on
 * timeout or abort, the engine's mount points released once it exited. The one path every agent
 * command takes, sandboxed or not.
 */
export async function executeCommand(
  request: SpawnRequest,
  signal: AbortSignal,
  onSpawned?: (pid: number) => void,
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
  const wrapped = await wrapInSandbox({
    command: request.command,
    directory: wrap.directory,
    profile: { denyRead: wrap.denyRead, allowWrite: wrap.allowWrite, denyWrite: wrap.denyWrite, temp: wrap.temp },
    network: wrap.network,
    ...(wrap.bwrapPath === undefined ? {} : { bwrapPath: wrap.bwrapPath }),
  });
  try {
    return await runTerminalCommand({ ...base, launch: { file: '/bin/sh', args: ['-c', wrapped] } });
  } finally {
    commandEnded();
  }
}

/** What starts agent commands for a CommandSandbox: the spawn server, or this process itself. */
export interface CommandSpawner {
  run(request: SpawnRequest, signal?: AbortSignal): Promise<TerminalResult>;
  /** The process that forks the commands. */
  pid(): Promise<number | undefined>;
  dispose(): Promise<void>;
}

/**
 * Starts agent commands from this process: for one-shot CLI commands, which are small and short,
 * where starting a spawn server would cost a Node start-up per call and save nothing.
 */
export class InProcessSpawner implements CommandSpawner {
  #hasEngine = false;

  run(request: SpawnRequest, signal?: AbortSignal): Promise<TerminalResult> {
    if (!this.#hasEngine && request.wrap !== undefined) {
      acquireEngine();
      this.#hasEngine = true;
    }
    return executeCommand(request, signal ?? new AbortController().signal);
  }

  pid(): Promise<number | undefined> {
    return Promise.resolve(process.pid);
  }

  async dispose(): Promise<void> {
    if (!this.#hasEngine) return;
    this.#hasEngine = false;
    await releaseEngine();
  }
}
