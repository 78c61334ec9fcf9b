import { readFile, stat } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import { FileLock } from '../../locks';
import { defaultRefusedDirs, resolveCheckpointDirectory } from '../checkpoint-directory';
import { defaultMaxFileBytes } from '../maintenance/retention';
import { dirHash, realIgnoredFoldersOf, statCacheFile, storeLayout } from '../../git-store';
import type { FolderListing } from './folder-listing';
import { HashWorkerPool } from './hash-worker-pool';
import { headStartCacheBytes, walkWorkerCount } from './hash-worker-thread';
import { readCheckedStatCache, type CheckedStatCache } from './stat-cache-format';
import { rememberedFoldersFile } from './nested-repositories';
import { RepoRulesCache } from './repo-rules';

/** The unit of config.json's `checkpoints.maxFileMiB`. */
const mebibyte = 1024 * 1024;

/**
 * A one-shot `vigil checkpoint DIR`'s walk, started before its core is loaded: the store lock
 * taken (so the walk runs under it, as a walk inside the checkpoint does), the stat cache read
 * under it, and the workers walking against it. The engine adopts it when its directory, store,
 * ignored folders and file size cap are the ones the walk used and the lock has been held since;
 * otherwise the walk is dropped and the checkpoint walks as usual.
 */
export interface WalkHeadStart {
  /** The directory walked (resolved). */
  readonly dir: string;
  /** The store lock held from before the walk until the task given with it returns. */
  readonly lockPath: string;
  readonly ignoredFolders: readonly string[];
  readonly maxFileBytes: number;
  /** The key of the store rules the walk went by (the engine adopts it only under the same rules). */
  readonly rulesKey: string;
  /** The directory's rules as read for the walk: the engine's own cache of them starts from it (no second read of the index). */
  readonly rules: RepoRulesCache;
  /** The stat cache read under the lock: the walk compared against it. */
  readonly cache: CheckedStatCache;
  /** When the walk began (ns): the scan's stamp for the racy rule. */
  readonly stampNs: bigint;
  /** The workers walking (the engine's pool takes them over). */
  readonly pool: HashWorkerPool;
  /** The listings that differ from the cache, batch by batch, once the walk ends. */
  readonly walked: Promise<readonly (readonly FolderListing[])[]>;
  /** Whether the calling context still runs under the hold taken before the walk. */
  isHeldHere(): boolean;
}

/** What a head start needs: the checkpoints folder of the data folder, config.json, and the directory named. */
export interface WalkHeadStartInput {
  /** `$VIGIL_HOME/checkpoints`. */
  readonly root: string;
  readonly configFile: string;
  readonly dir: string;
  /** The walk's worker threads, started before this code loaded (`prestartWalkWorkers`): taken over, or stopped. */
  readonly started?: Promise<readonly Worker[]>;
}

/**
 * The file size cap config.json sets, read by hand (no schema library on this path); the default
 * when it says nothing usable. Only a guess: the engine adopts the walk only if it agrees.
 */
async function maxFileBytesOf(configFile: string): Promise<number> {
  const text = await readFile(configFile, 'utf8').catch(() => undefined);
  if (text === undefined) return defaultMaxFileBytes;
  try {
    const value = (JSON.parse(text) as { checkpoints?: { maxFileMiB?: unknown } } | null)?.checkpoints?.maxFileMiB;
    return typeof value === 'number' && Number.isFinite(value) ? Math.round(value * mebibyte) : defaultMaxFileBytes;
  } catch {
    return defaultMaxFileBytes;
  }
}

/** The directory, resolved, when it can be checkpointed and its stat cache says it is big (with its size); else undefined. */
async function bigDirectory(
  input: WalkHeadStartInput,
): Promise<{ dir: string; cacheFile: string; cacheBytes: number } | undefined> {
  const dir = await resolveCheckpointDirectory(input.dir, await defaultRefusedDirs()).catch(() => undefined);
  if (dir === undefined) return undefined;
  const cacheFile = statCacheFile(storeLayout(input.root), dirHash(dir));
  const size = await stat(cacheFile).then(
    (info) => info.size,
    () => 0,
  );
  return size >= headStartCacheBytes ? { dir, cacheFile, cacheBytes: size } : undefined;
}

/** Under the lock: reads the stat cache and starts the walk against it (undefined without a usable cache). */
async function startWalk(
  lock: FileLock,
  pool: HashWorkerPool,
  input: WalkHeadStartInput,
  found: { dir: string; cacheFile: string },
): Promise<WalkHeadStart | undefined> {
  const rulesCache = new RepoRulesCache(found.dir, { env: process.env }, 0, rememberedFoldersFile(found.cacheFile));
  const [cache, maxFileBytes, loaded, ignoredFolders] = await Promise.all([
    readCheckedStatCache(found.cacheFile, found.dir),
    maxFileBytesOf(input.configFile),
    rulesCache.current(),
    realIgnoredFoldersOf(input.root),
  ]);
  const { rules } = loaded;
  if (cache === undefined) return undefined;
  const stampNs = BigInt(Date.now()) * 1_000_000n;
  const handed: (readonly FolderListing[])[] = [];
  const walked = pool
    .walk(
      found.dir,
      '',
      ignoredFolders,
      (listings) => handed.push(listings),
      { content: cache.content, maxFileBytes },
      rules.data,
    )
    .then(() => handed);
  // Observed at once: a head start nobody adopts must not fail the process.
  walked.catch(() => undefined);
  return {
    dir: found.dir,
    lockPath: lock.path,
    ignoredFolders,
    maxFileBytes,
    rulesKey: rules.key,
    rules: rulesCache,
    cache,
    stampNs,
    pool,
    walked,
    isHeldHere: () => lock.isHeldHere(),
  };
}

/**
 * Runs `task` with a walk head start for checkpointing `input.dir` when one can be had (a
 * checkpointable directory whose stat cache says it is big, a free store lock, a readable
 * cache), else with none. The lock is held until `task` settles; the workers are stopped then
 * unless the engine took them over.
 */
export async function withWalkHeadStart<T>(
  input: WalkHeadStartInput,
  task: (headStart: WalkHeadStart | undefined) => Promise<T>,
): Promise<T> {
  const [found, started = []] = await Promise.all([bigDirectory(input), input.started?.catch(() => undefined)]);
  if (found === undefined) {
    await Promise.all(started.map((thread) => thread.terminate()));
    return task(undefined);
  }
  // Started before the lock is tried: a worker's start-up is the longest step, and overlaps the rest.
  const pool = new HashWorkerPool(storeLayout(input.root).gitdir, walkWorkerCount(found.cacheBytes));
  pool.prestart(started);
  const lock = new FileLock({ path: storeLayout(input.root).lockPath, resource: 'the checkpoint store' });
  try {
    const outcome = await lock.tryWithLock(
      async () => task(await startWalk(lock, pool, input, found).catch(() => undefined)),
      'checkpoint',
    );
    if (outcome.kind === 'held') return outcome.value;
    // Taken: the checkpoint waits for it as usual, and the workers it started are not needed.
    await pool.dispose();
    return await task(undefined);
  } finally {
    await pool.dispose();
  }
}
