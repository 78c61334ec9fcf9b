import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Puts a FIFO where `file` is (whatever was there is removed first), as an agent can at any moment. */
export function swapInFifo(file: string): void {
  rmSync(file, { recursive: true, force: true });
  execFileSync('mkfifo', [file]);
}

/** What `settleBeside` gives when the work was still waiting after the grace period. */
export const stillWaiting = 'still waiting on the FIFO' as const;

/**
 * How `work` settles (its value, or its error), or `stillWaiting` when it has not after `graceMs`:
 * then a writer opens `fifo` once, so that an open waiting for one (the bug) is let go and the
 * test's process can end.
 */
export async function settleBeside<T>(
  work: Promise<T>,
  fifo: string,
  graceMs = 5_000,
): Promise<{ value: T } | { error: unknown } | typeof stillWaiting> {
  const settled = work.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const outcome = await Promise.race([settled, sleep(graceMs, stillWaiting)]);
  if (outcome === stillWaiting) {
    writeFileSync(fifo, '');
    await settled;
  }
  return outcome;
}
