import { runTerminalCommand, type TerminalResult } from '../terminal/run-terminal-command';
import { commandEnded, wrapInSandbox } from './sandbox-runtime';
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
