import { access } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { HashWorkerCommand, HashWorkerData, HashWorkerReply } from './hash-worker';
import { builtInRulesData } from './store-rules';

/**
 * A hashing worker's young generation (V8's default lets it grow to tens of MiB). A worker makes
 * short-lived garbage fast (each file's read buffer, its compressed bytes, the results): a small
 * nursery collects it, and the buffers it holds, sooner, which keeps the thread's heap and its
 * allocator's arena small (the arena's pages stay with the process after the thread ends). A 50k
 * first snapshot in a resident core: peak 265 MiB and 171 MiB settled, against 365 and 211 MiB
 * with V8's default (docs/benchmarks.md, "Resident core memory").
 */
const youngGenerationMb = 4;

/** Distributive form of Omit, so each command keeps its own fields. */
type CommandBody = HashWorkerCommand extends infer C ? (C extends HashWorkerCommand ? Omit<C, 'id'> : never) : never;

/** One hashing worker thread, seen from the thread that drives it: commands out, answers (and partial answers) back. */
export class HashWorker {
  readonly #worker: Worker;
  readonly #pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; onPartial?: (partial: unknown) => void }
  >();
  #nextId = 0;
  #failure: Error | undefined;
  /** The key of the store rules this worker was last sent (a walk sends them only when they differ). */
  rulesKey: string = builtInRulesData.key;

  constructor(gitdir: string, entry: URL) {
    const data: HashWorkerData = { gitdir };
    // From source (tests, `tsx`), the worker needs tsx registered before it can import TypeScript.
    this.#worker = entry.pathname.endsWith('.ts')
      ? new Worker(
          `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`,
          { eval: true, workerData: data, resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb } },
        )
      : new Worker(entry, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb } });
    this.#worker.unref();
    this.#worker.on('message', (reply: HashWorkerReply) => {
      const waiter = this.#pending.get(reply.id);
      if (reply.partial !== undefined) {
        waiter?.onPartial?.(reply.partial);
        return;
      }
      this.#pending.delete(reply.id);
      if (reply.error !== undefined) waiter?.reject(new Error(`hashing worker: ${reply.error}`));
      else waiter?.resolve(reply.value);
    });
    const fail = (error: Error): void => {
      this.#failure = error;
      for (const waiter of this.#pending.values()) waiter.reject(error);
      this.#pending.clear();
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`hashing worker exited with code ${code}`)));
  }

  /** Sends a command and waits for its answer. */
  send(command: CommandBody, onPartial?: (partial: unknown) => void): Promise<unknown> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, onPartial === undefined ? { resolve, reject } : { resolve, reject, onPartial });
      this.#worker.postMessage({ ...command, id });
    });
  }

  terminate(): Promise<number> {
    return this.#worker.terminate();
  }
}

/**
 * Where the worker's code is: beside this file when running from source; in the build, the
 * bundler emits `hash-worker.js` next to the entry points, while this code may sit in a chunk
 * folder below them.
 */
export async function workerEntry(): Promise<URL> {
  if (import.meta.url.endsWith('.ts')) return new URL('./hash-worker.ts', import.meta.url);
  const candidates = [new URL('./hash-worker.js', import.meta.url), new URL('../hash-worker.js', import.meta.url)];
  for (const candidate of candidates) {
    if (
      await access(candidate).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  throw new Error(
    `the hashing worker is missing from the build (looked for ${candidates.map((url) => url.pathname).join(', ')})`,
  );
}
