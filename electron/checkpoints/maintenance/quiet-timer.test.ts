import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { QuietTimer } from './quiet-timer';

/** A task that takes `ms` and counts how many of it ran at once. */
function countingTask(ms: number): {
  readonly task: () => Promise<boolean>;
  readonly seen: { most: number; started: number; finished: number };
} {
  let running = 0;
  const seen = { most: 0, started: 0, finished: 0 };
  return {
    seen,
    task: async () => {
      running += 1;
      seen.started += 1;
      seen.most = Math.max(seen.most, running);
      await sleep(ms);
      running -= 1;
      seen.finished += 1;
      return true;
    },
  };
}

/** Polls until `isDone` (the machine may be loaded: no fixed sleeps for what must have happened). */
async function until(isDone: () => boolean): Promise<void> {
  for (let waited = 0; !isDone(); waited += 10) {
    if (waited > 20_000) throw new Error('timed out waiting');
    await sleep(10);
  }
}

describe('QuietTimer', () => {
  it('runs a request made while its task runs after that run, never beside it', async () => {
    const { task, seen } = countingTask(400);
    const timer = new QuietTimer(task, { quietMs: 50, maxWaitMs: 100 });
    timer.request();
    await until(() => seen.started === 1); // the first run is under way (a long collection)
    timer.noteActivity(); // a checkpoint arrives meanwhile and asks for a look
    timer.request();
    // The first run ends about 450 ms in, the second starts once quiet after it and takes 400 ms more.
    await until(() => seen.finished === 2);
    await timer.running;
    timer.dispose();
    expect(seen).toEqual({ most: 1, started: 2, finished: 2 });
  });

  it('makes `running` the run under way at disposal, even after a request during it', async () => {
    const { task, seen } = countingTask(400);
    const timer = new QuietTimer(task, { quietMs: 50, maxWaitMs: 100 });
    timer.request();
    await until(() => seen.started === 1);
    timer.request();
    await sleep(150); // long enough for the request's own timer (50 ms) to fire during the run
    timer.dispose();
    await timer.running;
    // The first run finished before `running` settled; the request made during it is dropped with the timer.
    expect(seen).toEqual({ most: 1, started: 1, finished: 1 });
    await sleep(300);
    expect(seen.started).toBe(1);
  });
});
