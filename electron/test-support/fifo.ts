import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Puts a FIFO where `file` is (whatever was there is removed first), as an agent can at any moment. */
export function swapInFifo(file: string): void {
  rmSync(file, { recursive: true, force: true });
  execFileSync('mkfifo', [file]);
}

/** What `settleBeside` gives when the work was still waiting after the grace period. */
export const stillWaiting = 'still waiting on the FIFO' as const;

/** Opens each FIFO once for writing without blocking (no reader waiting: nothing to let go), so a reader's open returns. */
function letGo(fifos: readonly string[]): void {
  for (const fifo of fifos) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody waits on this one.
    }
  }
}

/**
 * How `work` settles (its value, or its error), or `stillWaiting` when it has not after `graceMs`:
 * then a writer opens each of `fifos` once, so that an open waiting for one (the bug) is let go
 * and the test's process can end.
 */
export async function settleBeside<T>(
  work: Promise<T>,
  fifos: string | readonly string[],
  graceMs = 5_000,
): Promise<{ value: T } | { error: unknown } | typeof stillWaiting> {
  const settled = work.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const outcome = await Promise.race([settled, sleep(graceMs, stillWaiting)]);
  if (outcome !== stillWaiting) return outcome;
  // Each let-go may unblock one open, after which the work may wait on the next FIFO.
  for (let round = 0; round < 5; round += 1) {
    letGo(typeof fifos === 'string' ? [fifos] : fifos);
    if ((await Promise.race([settled, sleep(200, stillWaiting)])) !== stillWaiting) break;
  }
  return stillWaiting;
}
