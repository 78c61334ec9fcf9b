import { stat } from 'node:fs/promises';
import { AppError, isAppError } from '../../shared/errors';
import {
  type CheckpointApi,
  type CheckpointDirectory,
  type CheckpointEntry,
  type CheckpointSource,
  droppedNumberOf,
  type ListOptions,
  parseCheckpointRef,
  pickCheckpoint,
  resolveTimelineDirectory,
  type TimelineLookup,
} from '../checkpoints';
import { decodeTree, isObjectId, type StoredTreeEntry, typeOfMode } from '../git-store';
import type { HermesCheckpoints } from './hermes-checkpoints';
import { mergeNewestFirst } from './hermes-entry';
import { hermesUnstoredPaths } from './hermes-unstored-paths';

/** The checkpoint engine as diff, restore and the timeline use it, with its size cap. */
export type MergedCheckpointApi = CheckpointApi & { readonly maxFileBytes: number };

/** What the merged view needs besides the two sources. */
export interface MergedCheckpointsOptions {
  /** The environment (git's default global excludes file lives under `XDG_CONFIG_HOME`). */
  readonly env: NodeJS.ProcessEnv;
  readonly home?: string;
}

function isNotFound(error: unknown): boolean {
  return isAppError(error) && error.code === 'not_found';
}

function timeOf(entry: CheckpointEntry): number {
  return Date.parse(entry.time);
}

function asVigil(entry: CheckpointEntry): CheckpointEntry {
  return entry.source === undefined ? { ...entry, source: 'vigil' } : entry;
}

/** The two sources of the merged view. */
interface Sources {
  readonly engine: MergedCheckpointApi;
  readonly hermes: HermesCheckpoints;
  readonly options: MergedCheckpointsOptions;
}

function noCheckpoints(dir: string): AppError {
  return new AppError(
    'not_found',
    `${dir} has no checkpoints: it was never checkpointed, by Vigil or by Hermes Agent. "vigil checkpoints status" lists the directories Vigil checkpointed.`,
    { dir },
  );
}

/** The timeline directory of `dir`: resolved now, unless the caller already did (`isResolved`). */
async function timelineDirectoryOf(dir: string, { isResolved }: TimelineLookup): Promise<string> {
  return isResolved === true ? dir : resolveTimelineDirectory(dir);
}

/** Vigil's newest entries of a resolved directory (none when it has no timeline). */
async function vigilEntries(
  engine: MergedCheckpointApi,
  resolved: string,
  page: ListOptions,
): Promise<CheckpointEntry[]> {
  try {
    return (await engine.list(resolved, { ...page, isResolved: true })).map(asVigil);
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

/** Every checkpoint of a directory, merged newest first; `not_found` when neither source has one. */
async function merged(
  engine: MergedCheckpointApi,
  resolved: string,
  hermesEntries: readonly CheckpointEntry[],
  limit: number,
  isBare = false,
): Promise<CheckpointEntry[]> {
  const vigil = await vigilEntries(engine, resolved, { limit, isBare });
  if (vigil.length === 0 && hermesEntries.length === 0) throw noCheckpoints(resolved);
  return mergeNewestFirst([vigil, hermesEntries], timeOf);
}

/** A Hermes checkpoint ready for diff and restore: its stats, and what Hermes could not have stored. */
async function prepared(
  { hermes, options }: Sources,
  resolved: string,
  entry: CheckpointEntry,
): Promise<CheckpointEntry> {
  const withStats = await hermes.withStats(entry);
  const gitdir = await hermes.gitdirOf(resolved, entry.id);
  if (gitdir === undefined) return withStats;
  const skipped = await hermesUnstoredPaths(resolved, gitdir, options);
  return { ...withStats, skipped };
}

/** A page of a directory's checkpoints: Vigil's, Hermes's, or both merged. */
async function listMerged(
  { engine, hermes }: Sources,
  dir: string,
  { limit = 100, offset = 0, source, isResolved, isBare }: ListOptions,
): Promise<readonly CheckpointEntry[]> {
  if (source === 'vigil') return (await engine.list(dir, { limit, offset, isResolved, isBare })).map(asVigil);
  // Resolved once here: the engine is told so and does not resolve the folder again.
  const resolved = await timelineDirectoryOf(dir, { isResolved });
  const hermesEntries = await hermes.entries(resolved);
  if (source !== 'hermes' && hermesEntries.length === 0) {
    try {
      return (await engine.list(resolved, { limit, offset, isResolved: true, isBare })).map(asVigil);
    } catch (error) {
      throw isNotFound(error) ? noCheckpoints(resolved) : error;
    }
  }
  const all =
    source === 'hermes' ? hermesEntries : await merged(engine, resolved, hermesEntries, offset + limit, isBare);
  const page = all.slice(offset, offset + limit);
  return isBare === true ? page : Promise.all(page.map((entry) => hermes.withStats(entry)));
}

/** How many checkpoints a directory has: Vigil's, Hermes's, or both. */
async function countMerged(
  { engine, hermes }: Sources,
  dir: string,
  { source, isResolved }: Pick<ListOptions, 'source' | 'isResolved'>,
): Promise<number> {
  if (source === 'vigil') return engine.count(dir, { isResolved });
  const resolved = await timelineDirectoryOf(dir, { isResolved });
  const hermesCount = (await hermes.commits(resolved)).length;
  if (source === 'hermes') return hermesCount;
  try {
    return (await engine.count(resolved, { isResolved: true })) + hermesCount;
  } catch (error) {
    if (!isNotFound(error)) throw error;
    if (hermesCount === 0) throw noCheckpoints(resolved);
    return hermesCount;
  }
}

/** The checkpoint a ref names (number in the merged list, id or id prefix of either store). */
async function resolveMerged(
  sources: Sources,
  dir: string,
  ref: string,
  lookup: TimelineLookup,
): Promise<CheckpointEntry> {
  const { engine, hermes } = sources;
  const resolved = await timelineDirectoryOf(dir, lookup);
  const hermesEntries = await hermes.entries(resolved);
  const fromEngine = async (): Promise<CheckpointEntry> =>
    asVigil(await engine.resolve(resolved, ref, { isResolved: true }));
  // A recently dropped checkpoint (`d1`) is Vigil's alone.
  if (hermesEntries.length === 0 || droppedNumberOf(ref) !== undefined) return fromEngine();
  const parsed = parseCheckpointRef(ref);
  const all = await merged(engine, resolved, hermesEntries, Number.MAX_SAFE_INTEGER);
  let index: number;
  try {
    index = pickCheckpoint(
      parsed,
      all.map((entry) => entry.id),
      resolved,
    );
  } catch (error) {
    // An id no timeline holds may be a recently dropped checkpoint's: the engine knows (and says when one expired).
    if (parsed.kind === 'id' && isAppError(error) && error.code === 'not_found') return fromEngine();
    throw error;
  }
  const picked = all[index];
  if (picked === undefined) throw new AppError('not_found', `No such checkpoint of ${resolved}.`, { dir: resolved });
  return picked.source === 'hermes' ? prepared(sources, resolved, picked) : picked;
}

/**
 * Reads an object from Vigil's store, else from Hermes's. Where the last object not in Vigil's
 * store was found is remembered: a diff of a Hermes checkpoint reads mostly there.
 */
function objectReader(hermes: HermesCheckpoints) {
  let isHermesFirst = false;
  return async <T>(
    oid: string,
    type: 'tree' | 'blob',
    fromEngine: () => Promise<T>,
    fromBytes: (bytes: Buffer) => T,
  ): Promise<T> => {
    if (isHermesFirst && isObjectId(oid)) {
      const quick = await hermes.readObject(oid, type, false);
      if (quick !== undefined) return fromBytes(quick);
    }
    try {
      const value = await fromEngine();
      isHermesFirst = false;
      return value;
    } catch (error) {
      if (!isNotFound(error)) throw error;
      const found = await hermes.readObject(oid, type, true);
      if (found === undefined) throw error;
      isHermesFirst = true;
      return fromBytes(found);
    }
  };
}

/** Vigil's checkpointed directories and Hermes's, one entry per directory, most recently touched first. */
async function mergedDirectories({ engine, hermes }: Sources): Promise<readonly CheckpointDirectory[]> {
  const [vigil, fromHermes] = await Promise.all([engine.directories(), hermes.directories()]);
  const byDir = new Map<string, CheckpointDirectory>(
    vigil.map((directory) => [directory.dir, { ...directory, sources: ['vigil'] satisfies CheckpointSource[] }]),
  );
  for (const found of fromHermes) {
    const known = byDir.get(found.dir);
    const lastTouch = found.newest ?? found.lastTouch ?? '';
    if (known === undefined) {
      const exists = await stat(found.dir).then(
        (info) => info.isDirectory(),
        () => false,
      );
      byDir.set(found.dir, {
        dir: found.dir,
        dirhash: found.dirhash,
        count: found.count,
        lastTouch,
        exists,
        sources: ['hermes'],
        head: found.head,
      });
      continue;
    }
    const isHermesNewer = lastTouch > known.lastTouch;
    const head = isHermesNewer ? found.head : known.head;
    byDir.set(found.dir, {
      ...known,
      count: known.count + found.count,
      lastTouch: isHermesNewer ? lastTouch : known.lastTouch,
      sources: ['vigil', 'hermes'],
      // Spread over `known`: without a head of its own, the entry keeps the known one.
      ...(head === undefined ? {} : { head }),
    });
  }
  return [...byDir.values()].sort((a, b) => (a.lastTouch < b.lastTouch ? 1 : a.lastTouch > b.lastTouch ? -1 : 0));
}

/**
 * Vigil's checkpoint engine with Hermes Agent's checkpoints merged in: one timeline per
 * directory, newest first, each entry marked with its source. Numbers (1 = newest) count the
 * merged list, so a number means the same checkpoint whether or not the list was filtered by
 * source; ids and id prefixes of either store work too. Diff and restore read trees and blobs
 * from Vigil's store and, when it does not hold them, from Hermes's (read-only), so a Hermes
 * checkpoint is diffed and restored by the same engine, its pre-rollback snapshot going into
 * Vigil's store. A resolved Hermes checkpoint carries, as `skipped`, what Hermes's git rules
 * could not have stored (ignored paths, nested repositories), so a restore never deletes those.
 * Everything else (taking checkpoints, the store's status, pruning) is Vigil's engine's.
 */
export function mergeHermesCheckpoints(
  engine: MergedCheckpointApi,
  hermes: HermesCheckpoints,
  options: MergedCheckpointsOptions,
): MergedCheckpointApi {
  const sources: Sources = { engine, hermes, options };
  const readObject = objectReader(hermes);
  return {
    gitdir: engine.gitdir,
    // Read through: config.json can change the engine's size cap while it runs.
    get maxFileBytes() {
      return engine.maxFileBytes;
    },
    checkpoint: (dir, request) => engine.checkpoint(dir, request),
    status: (dir) => engine.status(dir),
    prune: (actor) => engine.prune(actor),
    noteWritten: (paths) => engine.noteWritten(paths),
    knownHashes: (dir) => engine.knownHashes(dir),
    isExcluded: (dir, relativePath) => engine.isExcluded(dir, relativePath),
    storeRules: (dir, found) => engine.storeRules(dir, found),
    withStoreLock: (fn) => engine.withStoreLock(fn),
    duringRestore: (checkpointId, task) => engine.duringRestore(checkpointId, task),
    dispose: () => engine.dispose(),
    list: (dir, options: ListOptions = {}) => listMerged(sources, dir, options),
    count: (dir, options: Pick<ListOptions, 'source' | 'isResolved'> = {}) => countMerged(sources, dir, options),
    resolve: (dir, ref, lookup: TimelineLookup = {}) => resolveMerged(sources, dir, ref, lookup),
    dropped: (dir) => engine.dropped(dir),
    readTree: (oid: string): Promise<readonly StoredTreeEntry[]> =>
      readObject(
        oid,
        'tree',
        () => engine.readTree(oid),
        (bytes) => decodeTree(bytes).map((item) => ({ ...item, type: typeOfMode(item.mode) })),
      ),
    readBlob: (oid: string): Promise<Uint8Array> =>
      readObject(
        oid,
        'blob',
        () => engine.readBlob(oid),
        (bytes) => bytes,
      ),
    directories: () => mergedDirectories(sources),
  };
}
