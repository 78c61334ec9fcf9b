import type { BigIntStats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { DirState } from './dir-state';
import type { FileMode } from '../../git-store';
import { loadStatCache } from './stat-cache';
import { racyWindowNs } from './stat-walk';
import { dirHash, statCacheFile, storeLayout } from '../../git-store';

/**
 * Blob ids the engine already knows for a directory's files, from its stat cache (read only): a
 * file whose stat still matches its record, and whose record is not racy, has that record's blob
 * id without being read — git's index rule. Anything else is read and hashed.
 */
export interface KnownHashes {
  /** The blob id of `relativePath` if its stat proves it unchanged since it was hashed, else undefined. */
  oidOf(relativePath: string, stats: BigIntStats, mode: FileMode): string | undefined;
}

/** No known hashes: every file is read. */
export const noKnownHashes: KnownHashes = { oidOf: () => undefined };

/** Loads the engine's stat cache of `dir` (resolved) under `root` (`$VIGIL_HOME/checkpoints`); none when it is missing or damaged. */
export async function loadKnownHashes(root: string, dir: string): Promise<KnownHashes> {
  const state: DirState | undefined = await loadStatCache(statCacheFile(storeLayout(root), dirHash(dir)), dir);
  return state === undefined ? noKnownHashes : knownHashesOf(state);
}

/** The known hashes of a directory's state (the engine's own, in memory, or one loaded from its stat cache). */
export function knownHashesOf(state: DirState): KnownHashes {
  return {
    oidOf(relativePath, stats, mode) {
      const record = state.file(relativePath);
      if (record === undefined) return undefined;
      const isSame =
        record.mode === mode &&
        record.size === Number(stats.size) &&
        record.mtimeNs === stats.mtimeNs &&
        record.ctimeNs === stats.ctimeNs &&
        record.ino === stats.ino &&
        // The same rule as the engine's scan (stat-walk.ts): a record written too close to its scan is racy.
        record.mtimeNs < state.stampNs - racyWindowNs(record.mtimeNs);
      return isSame ? record.oid : undefined;
    },
  };
}

/**
 * The known hashes of a directory: the engine's state in memory when it holds one (the resident
 * core: nothing to read), else `loadKnownHashes` with the last result per directory kept while its
 * stat cache file is unchanged (same size and mtime), so paging through a diff does not parse the cache again.
 */
export function knownHashesLoader(
  root: string,
  inMemory: (dir: string) => KnownHashes | undefined = () => undefined,
): (dir: string) => Promise<KnownHashes> {
  const kept = new Map<string, { readonly stamp: string; readonly known: KnownHashes }>();
  return async (dir) => {
    const held = inMemory(dir);
    if (held !== undefined) return held;
    const file = statCacheFile(storeLayout(root), dirHash(dir));
    const stats = await stat(file).catch(() => undefined);
    if (stats === undefined) return noKnownHashes;
    const stamp = `${stats.size}:${stats.mtimeMs}`;
    const cached = kept.get(dir);
    if (cached?.stamp === stamp) return cached.known;
    const known = await loadKnownHashes(root, dir);
    kept.set(dir, { stamp, known });
    return known;
  };
}
