import { parentPort, workerData } from 'node:worker_threads';
import type { AppErrorData } from '../../../shared/errors';
import { walkBlocking } from './walk-blocking';
import type { FileHasher, HashRequest, ObjectSink } from './file-hasher';
import type { ObjectStore } from '../../git-store';
import { StatBaseline } from './stat-baseline';
import { StoreRules, type StoreRulesData } from './store-rules';

/** A message from the pool to a hashing worker. */
export type HashWorkerCommand =
  | { readonly id: number; readonly type: 'begin'; readonly sink: ObjectSink }
  | { readonly id: number; readonly type: 'hash'; readonly request: HashRequest }
  | { readonly id: number; readonly type: 'finish' }
  | { readonly id: number; readonly type: 'abort' }
  | {
      readonly id: number;
      readonly type: 'baseline';
      /** The stat cache the walks that follow compare against (undefined: none). */
      readonly content?: Uint8Array;
      readonly maxFileBytes: number;
    }
  | {
      readonly id: number;
      readonly type: 'walk';
      readonly root: string;
      readonly rel: string;
      readonly ignoredFolders: readonly string[];
      readonly splitAt?: number;
      /** The key of the store rules to walk by; their data comes along when this worker has other rules. */
      readonly rulesKey: string;
      readonly rules?: StoreRulesData;
    };

/**
 * A hashing worker's answer: the command's result, or its error message (and, for an expected failure such as a
 * store that cannot be written, the AppError as data: `failure`); `partial` is a batch of a longer answer;
 * `madeFan` a fan-out folder the command's loose writes made, told at once, before whatever becomes of the write.
 */
export type HashWorkerReply = {
  readonly id: number;
  readonly value?: unknown;
  readonly error?: string;
  readonly failure?: AppErrorData;
  readonly partial?: unknown;
  readonly madeFan?: string;
};

/** What the pool passes to a new worker. */
export interface HashWorkerData {
  readonly gitdir: string;
}

/**
 * The hashing worker: reads, hashes and compresses files off the main thread, writing them into
 * its own pack, so that a 50,000-file snapshot never stalls the app's event loop.
 */
function serve(): void {
  const port = parentPort;
  if (port === null) return;
  const { gitdir } = workerData as HashWorkerData;
  // Loaded on the first batch to hash: a walk, often all a worker does, needs none of it.
  let hashing: Promise<{ store: ObjectStore; FileHasher: typeof FileHasher }> | undefined;
  const loadHashing = (): Promise<{ store: ObjectStore; FileHasher: typeof FileHasher }> =>
    (hashing ??= Promise.all([import('../../git-store'), import('./file-hasher')]).then(
      ([{ ObjectStore }, { FileHasher }]) => ({ store: new ObjectStore(gitdir), FileHasher }),
    ));
  let hasher: FileHasher | undefined;
  let baseline: StatBaseline | undefined;
  let rules = StoreRules.builtIn;
  let chain: Promise<void> = Promise.resolve();
  // The command running (commands run one at a time): a fan-out folder made is told as its own.
  let running = -1;
  const tellFanMade = (fan: string): void => port.postMessage({ id: running, madeFan: fan } satisfies HashWorkerReply);
  port.on('message', (command: HashWorkerCommand) => {
    chain = chain.then(async () => {
      running = command.id;
      try {
        let value: unknown;
        if (command.type === 'begin') {
          const { store, FileHasher } = await loadHashing();
          hasher = new FileHasher(store, command.sink, true, tellFanMade);
          await hasher.begin();
        } else if (command.type === 'hash') {
          if (hasher === undefined) throw new Error('hash before begin');
          value = await hasher.hash(command.request);
        } else if (command.type === 'walk') {
          if (command.rules !== undefined) rules = StoreRules.of(command.rules);
          if (rules.key !== command.rulesKey)
            throw new Error(`walk by rules ${command.rulesKey} the worker was not sent`);
          value = walkBlocking(
            command.root,
            command.rel,
            { ignoredFolders: command.ignoredFolders, rules },
            (batch) => port.postMessage({ id: command.id, partial: batch } satisfies HashWorkerReply),
            command.splitAt,
            baseline,
          );
        } else if (command.type === 'baseline') {
          baseline = command.content === undefined ? undefined : StatBaseline.of(command.content, command.maxFileBytes);
        } else if (command.type === 'finish') {
          value = await hasher?.finish();
          hasher = undefined;
        } else {
          await hasher?.abort();
          hasher = undefined;
        }
        port.postMessage({ id: command.id, value } satisfies HashWorkerReply);
      } catch (error) {
        port.postMessage({
          id: command.id,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          ...failureOf(error),
        } satisfies HashWorkerReply);
      }
    });
  });
}

serve();

/**
 * An AppError's data, to cross to the main thread whole (code, message, details); nothing for
 * another error. Told by its shape, not `instanceof`: importing shared/errors at the worker's start
 * would load the chunk it lives in (the relay client's) into every worker.
 */
function failureOf(error: unknown): { failure?: AppErrorData } {
  const toData = error instanceof Error ? (error as { toData?: unknown }).toData : undefined;
  return typeof toData === 'function' ? { failure: toData.call(error) as AppErrorData } : {};
}
