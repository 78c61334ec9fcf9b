import type { Worker } from 'node:worker_threads';
import { AppError } from '../../../shared/errors';
import type { HashWorkerCommand, HashWorkerReply } from './hash-worker';
import { startHashWorkerThread, threadEnding } from './hash-worker-thread';
import { builtInRulesData } from './store-rules';

/** Distributive form of Omit, so each command keeps its own fields. */
type CommandBody = HashWorkerCommand extends infer C ? (C extends HashWorkerCommand ? Omit<C, 'id'> : never) : never;

/** One hashing worker thread, seen from the thread that drives it: commands out, answers (and partial answers) back. */
export class HashWorker {
  readonly #worker: Worker;
  readonly #pending = new Map<
    number,
    {
      resolve: (value: unknown) => void;
      reject: (error: Error) => void;
      onPartial?: ((partial: unknown) => void) | undefined;
      onFanMade?: ((fan: string) => void) | undefined;
    }
  >();
  #nextId = 0;
  #failure: Error | undefined;
  /** The key of the store rules this worker was last sent (a walk sends them only when they differ). */
  rulesKey: string = builtInRulesData.key;

  /** A new thread on the worker's code at `entry`, or one already started (`startHashWorkerThread`) taken over. */
  constructor(gitdir: string, thread: URL | Worker) {
    this.#worker = thread instanceof URL ? startHashWorkerThread(gitdir, thread) : thread;
    this.#worker.on('message', (reply: HashWorkerReply) => {
      const waiter = this.#pending.get(reply.id);
      // Posted before the command's answer, and before the thread's end is seen (its messages are drained first).
      if (reply.madeFan !== undefined) {
        waiter?.onFanMade?.(reply.madeFan);
        return;
      }
      if (reply.partial !== undefined) {
        waiter?.onPartial?.(reply.partial);
        return;
      }
      this.#pending.delete(reply.id);
      // An expected failure (the store could not be written) keeps its code and message across the thread.
      if (reply.failure !== undefined)
        waiter?.reject(new AppError(reply.failure.code, reply.failure.message, reply.failure.details));
      else if (reply.error !== undefined) waiter?.reject(new Error(`hashing worker: ${reply.error}`));
      else waiter?.resolve(reply.value);
    });
    const fail = (error: Error): void => {
      this.#failure = error;
      for (const waiter of this.#pending.values()) waiter.reject(error);
      this.#pending.clear();
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`hashing worker exited with code ${code}`)));
    // A thread started ahead may have ended before these listeners were added.
    this.#failure = threadEnding(this.#worker);
  }

  /** Sends a command and waits for its answer, hearing of its partial answers and of the fan-out folders it made. */
  send(
    command: CommandBody,
    onPartial?: (partial: unknown) => void,
    onFanMade?: (fan: string) => void,
  ): Promise<unknown> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, onPartial, onFanMade });
      this.#worker.postMessage({ ...command, id });
    });
  }

  terminate(): Promise<number> {
    return this.#worker.terminate();
  }
}
