import type { Worker } from 'node:worker_threads';

/**
 * The walk's threads the CommonJS entry (cli.cjs) started for a one-shot `vigil checkpoint DIR`,
 * handed to the ES executable it loads next: `dir` as given, made absolute (the head start resolves it again).
 */
export interface HandedWalk {
  readonly dir: string;
  readonly started: Promise<readonly Worker[]>;
}

/**
 * The two bundles share no module, only the process: the hand-over goes through `globalThis`, under
 * a registered symbol, set before the ES executable is imported and taken once by it.
 */
const slot = Symbol.for('vigil.cli.handedWalk');

type Slots = { [slot]?: HandedWalk | undefined };

/** Leaves the walk's threads for the ES executable to take (`takeHandedWalk`). */
export function handOffWalk(walk: HandedWalk): void {
  (globalThis as Slots)[slot] = walk;
}

/**
 * Takes the threads handed for `dir` (once); undefined when none were. Threads handed for another
 * directory, or when `dir` is undefined (arguments the command parses itself), are stopped.
 */
export function takeHandedWalk(dir: string | undefined): Promise<readonly Worker[]> | undefined {
  const walk = (globalThis as Slots)[slot];
  (globalThis as Slots)[slot] = undefined;
  if (walk === undefined) return undefined;
  if (dir !== undefined && walk.dir === dir) return walk.started;
  stopHandedThreads(walk.started);
  return undefined;
}

/** Stops threads handed over that nothing will use (a core takes the call after all). */
export function stopHandedThreads(started: Promise<readonly Worker[]>): void {
  void started.then(
    (threads) => Promise.all(threads.map((thread) => thread.terminate())),
    () => undefined,
  );
}
