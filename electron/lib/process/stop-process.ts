import { isProcessAlive } from './is-process-alive';
import { processState } from './process-start-time';

/** A pause, on the global timer: node:timers/promises would load on every relayed command and hook call for this alone. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether a process is gone: no such pid, or one that has exited and waits to be reaped (a zombie). */
export async function isProcessGone(pid: number): Promise<boolean> {
  if (!isProcessAlive(pid)) return true;
  return (await processState(pid))?.hasExited === true;
}

/** Waits up to `waitMs` for a process to be gone; resolves whether it is. */
export async function waitForExit(pid: number, waitMs: number): Promise<boolean> {
  const until = Date.now() + waitMs;
  for (let pause = 10; ; pause = Math.min(pause * 2, 100)) {
    if (await isProcessGone(pid)) return true;
    if (Date.now() >= until) return false;
    await sleep(pause);
  }
}

/**
 * Asks a process to stop (SIGTERM, which a Vigil core answers by closing cleanly), waits up to
 * `waitMs` for it, then kills it (SIGKILL). Resolves whether it is gone.
 */
export async function stopProcess(pid: number, waitMs: number): Promise<boolean> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return isProcessGone(pid);
  }
  if (await waitForExit(pid, waitMs)) return true;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone meanwhile, or not ours to kill: the check below says which.
  }
  return waitForExit(pid, 1_000);
}
