import { access, stat } from 'node:fs/promises';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { dirHash, statCacheFile, storeLayout } from '../../git-store';
import type { HashWorkerData } from './hash-worker';

/**
 * A hashing worker's young generation (V8's default lets it grow to tens of MiB). A worker makes
 * short-lived garbage fast (each file's read buffer, its compressed bytes, the results): a small
 * nursery collects it, and the buffers it holds, sooner, which keeps the thread's heap and its
 * allocator's arena small (the arena's pages stay with the process after the thread ends). A 50k
 * first snapshot in a resident core: peak 265 MiB and 171 MiB settled, against 365 and 211 MiB
 * with V8's default (docs/benchmarks.md, "Resident core memory").
 */
const youngGenerationMb = 4;

/** From a stat cache this big (about 2,000 files: the engine's worker threshold), a walk head start pays off. */
export const headStartCacheBytes = 2_000 * 64;

/**
 * From a stat cache this big (about 100,000 files), a one-shot walk takes two threads whenever there
 * are two cores, whatever the load average: its lstat calls take about a second, against ~30 ms of
 * CPU for a second thread's start (200k files, paired: 0.77× the wall and 0.78× the CPU with the
 * cores free; 0.82–1.06× the wall and 1.16–1.18× the CPU on a machine loaded 7–15). Below it, one
 * thread unless the load leaves cores idle (at 50,000 files a second thread cost more than it saved).
 */
export const splitWalkCacheBytes = 100_000 * 64;

/**
 * The hashing threads `VIGIL_HASH_WORKERS` asks for (a whole number from 1 to 4), whatever the cores and
 * the load: a benchmark measures a quiet host's case on a busy one with it. Anything else is ignored.
 */
export function forcedWorkerCount(env: NodeJS.ProcessEnv): number | undefined {
  const value = env['VIGIL_HASH_WORKERS']?.trim() ?? '';
  return /^[1-4]$/.test(value) ? Number(value) : undefined;
}

/**
 * How many hashing threads to use by default: one per core, 1 to 4 (the main thread waits
 * meanwhile). A one-shot process counts only the cores other processes leave idle (by the load
 * average), at least one: on a busy machine a second thread gains no core and costs its own cold
 * start and JIT warm-up (on a 50,000-file walk, two threads used ~0.6 s of CPU where one used ~0.4 s).
 */
export function defaultWorkerCount(isOneShot = false, env: NodeJS.ProcessEnv = process.env): number {
  const forced = forcedWorkerCount(env);
  if (forced !== undefined) return forced;
  const cores = os.availableParallelism();
  const idle = isOneShot ? Math.round(cores - (os.loadavg()[0] ?? 0)) : cores;
  return Math.max(1, Math.min(4, idle));
}

/** How many threads walk a directory whose stat cache has `cacheBytes` bytes, in a one-shot process. */
export function walkWorkerCount(cacheBytes: number, env: NodeJS.ProcessEnv = process.env): number {
  const count = defaultWorkerCount(true, env);
  if (forcedWorkerCount(env) !== undefined || cacheBytes < splitWalkCacheBytes) return count;
  return Math.max(count, Math.min(2, os.availableParallelism()));
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

/** How each thread started here ended, once it has (an error, or its exit): a thread taken over later must not wait on it. */
const endings = new WeakMap<Worker, Error>();

/** Why a thread started by `startHashWorkerThread` has already ended; undefined while it runs. */
export function threadEnding(worker: Worker): Error | undefined {
  return endings.get(worker);
}

/**
 * Starts one hashing worker thread for the store at `gitdir` (unreferenced: `HashWorker` drives
 * it). Its end is recorded at once, so that one started ahead and taken over later is seen failed.
 */
export function startHashWorkerThread(gitdir: string, entry: URL): Worker {
  const data: HashWorkerData = { gitdir };
  const options = { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb } };
  // From source (tests, `tsx`), the worker needs tsx registered before it can import TypeScript.
  const worker = entry.pathname.endsWith('.ts')
    ? new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`,
        { ...options, eval: true },
      )
    : new Worker(entry, options);
  worker.unref();
  const end = (error: Error): void => {
    if (!endings.has(worker)) endings.set(worker, error);
  };
  worker.on('error', end);
  worker.on('exit', (code) => end(new Error(`hashing worker exited with code ${code}`)));
  return worker;
}

/**
 * `vigil checkpoint DIR` with no core: the walk's worker threads, started as soon as the
 * executable knows it works in-process, before the head start's modules load, when the stat cache
 * of DIR (as given, made absolute: the head start resolves it again) says the tree is big; else
 * none. A thread's start (a fresh isolate, then the worker's modules) is the longest step before the
 * walk, so it overlaps the loading. The head start takes them over, or stops them.
 */
export async function prestartWalkWorkers(input: { readonly root: string; readonly dir: string }): Promise<Worker[]> {
  const layout = storeLayout(input.root);
  const size = await stat(statCacheFile(layout, dirHash(input.dir))).then(
    (info) => info.size,
    () => 0,
  );
  if (size < headStartCacheBytes) return [];
  const entry = await workerEntry();
  return Array.from({ length: walkWorkerCount(size) }, () => startHashWorkerThread(layout.gitdir, entry));
}
