import { AppError, isAppError, type AppErrorData } from '../../shared/errors';
import { executeCommand } from './command-execution';
import { forgetPlaceholders } from './mount-placeholders';
import { releaseEngine, acquireEngine } from './sandbox-runtime';
import type { SpawnServerCommand, SpawnServerReply } from './spawn-protocol';

/**
 * The spawn server: a small Node process the core starts once and asks to run every agent command
 * (the sandbox engine's `which` and `rg`, bubblewrap, the command itself). Forking it costs the
 * same however large the core has grown. It runs commands side by side, answers each with its
 * process group once started and its result once finished, and stops them all and exits when the
 * core goes away.
 */
const running = new Map<number, AbortController>();
/** The runs not yet settled: their placeholders are removed once their command ended. */
const settling = new Set<Promise<void>>();

/** Sends a reply while the core listens; one that finds the channel closed (the core went away) is dropped. */
function send(reply: SpawnServerReply): void {
  if (process.connected) process.send?.(reply, undefined, undefined, () => undefined);
}

function errorData(error: unknown): AppErrorData {
  if (isAppError(error)) return error.toData();
  const message = error instanceof Error ? error.message : String(error);
  return new AppError('io_error', `The spawn server could not run the command: ${message}`).toData();
}

/**
 * Runs one command and answers it. A sandboxed command's result goes out as soon as it exited, and
 * the engine then removes its mount points (a few `rmdir`s in a namespace being torn down, several
 * ms) while the core carries the answer on; `released` says when that is done.
 */
async function run(command: Extract<SpawnServerCommand, { type: 'run' }>): Promise<void> {
  const { id } = command;
  const controller = new AbortController();
  running.set(id, controller);
  const answer = { isSent: false };
  try {
    const result = await executeCommand(
      command.request,
      controller.signal,
      (pid) => send({ type: 'started', id, pid }),
      (early) => {
        answer.isSent = true;
        send({ type: 'finished', id, result: early, isReleased: false });
      },
    );
    send(answer.isSent ? { type: 'released', id } : { type: 'finished', id, result, isReleased: true });
  } catch (error) {
    send({ type: 'failed', id, error: errorData(error) });
  } finally {
    running.delete(id);
  }
}

/** How long the engine gets to close its proxies at shutdown before the server exits anyway (ms). */
const releaseGraceMs = 2000;

/**
 * Stops every running command, waits for their release (the placeholders made for them removed)
 * and lets go of the engine (its proxies), then exits, within a bounded time. What a release that
 * did not finish left is removed at the next start, from its record.
 */
async function shutDown(): Promise<void> {
  for (const controller of running.values()) controller.abort();
  const grace = new Promise((resolve) => setTimeout(resolve, releaseGraceMs).unref());
  await Promise.race([Promise.all(settling), grace]);
  await Promise.race([forgetPlaceholders(), grace]);
  await Promise.race([releaseEngine().catch(() => undefined), grace]);
  process.exit(0);
}

acquireEngine();
process.on('message', (command: SpawnServerCommand) => {
  if (command.type === 'run') {
    const settled = run(command);
    settling.add(settled);
    void settled.then(() => settling.delete(settled));
  } else running.get(command.id)?.abort();
});
process.on('disconnect', () => void shutDown());
