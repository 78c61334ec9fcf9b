import path from 'node:path';
import { relativeInside } from '../../lib';
import type { WatchedTree } from '../watchers';
import { directoryExclusion } from './exclusion-rules';
import type { TrackedDirectory } from './tracked-directory';

/** The running watch over a folder, as a cache of folder listings uses it (`FolderChangeFeed.watchOf`). */
export interface FolderWatch {
  /**
   * Changes only when the watcher may have missed events (an overflow, a catch-up that failed, a
   * restart): what was read under another value must be read again.
   */
  readonly epoch: number;
  /** Whether a change to `folder`'s entries (names, links, times of its files) is reported: no unwatched folder on its way. */
  covers(folder: string): boolean;
  /**
   * Whether a change to the entries of `subfolder` is reported, given that one to its parent's is:
   * `covers` for a walk from the top, without looking at the parent's path again.
   */
  coversSubfolder(subfolder: string): boolean;
  /** Resolves once every change made before the call was reported; false when that could not be made sure. */
  catchUp(): Promise<boolean>;
}

interface Watched {
  readonly tracked: TrackedDirectory;
  readonly tree: WatchedTree;
  epoch: number;
}

/** The longest wait for the watcher to catch up before a caller reads every folder instead (ms). */
const catchUpMs = 2_000;

let nextEpoch = 1;

/**
 * Every change the directory watchers report, as absolute paths, for caches outside the checkpoint
 * engine that keep what they read of folders (the sandbox's scan of the workspace roots): they
 * read again only the folders that changed, and every folder when the watcher may have missed
 * changes. Events are handed on before the checkpoint's own filters (ignored folders).
 */
export class FolderChangeFeed {
  readonly #listeners = new Set<(absolutePath: string) => void>();
  readonly #watched = new Map<string, Watched>();

  /** Calls `listener` with each reported change (a file or a folder, its absolute path); returns the disposer. */
  onChanged(listener: (absolutePath: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The watch of the watched directory that holds `folder` (or is it), or undefined when none does. */
  watchOf(folder: string): FolderWatch | undefined {
    for (const watched of this.#watched.values()) {
      if (relativeInside(watched.tracked.dir, folder) === undefined) continue;
      return {
        epoch: watched.epoch,
        covers: (candidate) => isCovered(watched.tracked, candidate),
        coversSubfolder: (subfolder) => isSubfolderCovered(watched.tracked, subfolder),
        catchUp: async () => {
          const epoch = watched.epoch;
          const outcome = await watched.tree.catchUp(catchUpMs);
          if (outcome.kind === 'caught-up' && epoch === watched.epoch) return true;
          this.lost(watched.tracked);
          return false;
        },
      };
    }
    return undefined;
  }

  /** A watcher is set up for `tracked`: its changes count from now. */
  started(tracked: TrackedDirectory, tree: WatchedTree): void {
    this.#watched.set(tracked.dirhash, { tracked, tree, epoch: nextEpoch++ });
  }

  /** A change the watcher of `tracked` reported (relative, `/`-separated). */
  changed(tracked: TrackedDirectory, rel: string): void {
    if (this.#listeners.size === 0) return;
    const absolute = path.join(tracked.dir, ...rel.split('/'));
    for (const listener of this.#listeners) listener(absolute);
  }

  /** The watcher of `tracked` may have missed changes: what was read before must be read again. */
  lost(tracked: TrackedDirectory): void {
    const watched = this.#watched.get(tracked.dirhash);
    if (watched !== undefined) watched.epoch = nextEpoch++;
  }

  /** The watcher of `tracked` stopped: nothing it covered is known from events any more. */
  stopped(tracked: TrackedDirectory): void {
    this.#watched.delete(tracked.dirhash);
  }

  /** Forgets every watcher (the engine is disposed). */
  clear(): void {
    this.#watched.clear();
    this.#listeners.clear();
  }
}

/**
 * Whether the watcher of `tracked` reports changes in `folder`: it lies in the directory, no folder
 * on its way is one the watcher does not look inside (dependencies, VCS folders), and none could
 * not be watched.
 */
function isCovered(tracked: TrackedDirectory, folder: string): boolean {
  if (!tracked.isWatched) return false;
  // Most folders are spelled below the directory as it is: no resolving needed for those.
  const rel = folder.startsWith(`${tracked.dir}${path.sep}`)
    ? folder.slice(tracked.dir.length + 1)
    : relativeInside(tracked.dir, folder);
  if (rel === undefined) return false;
  if (rel === '') return true;
  const parts = rel.split(path.sep);
  if (parts.some((part) => directoryExclusion(part) !== undefined)) return false;
  for (const unwatched of tracked.walkedPaths.keys()) {
    const unwatchedParts = unwatched.split('/');
    if (unwatchedParts.every((part, index) => parts[index] === part)) return false;
  }
  return true;
}

/**
 * `isCovered` of a folder whose parent is covered: no part of the parent's path is excluded and no
 * unwatched path is the parent or above it, so only the folder's own name and its own path remain
 * to check (an unwatched path above the folder would be at or above its parent).
 */
function isSubfolderCovered(tracked: TrackedDirectory, subfolder: string): boolean {
  if (!tracked.isWatched) return false;
  if (directoryExclusion(path.basename(subfolder)) !== undefined) return false;
  if (tracked.walkedPaths.size === 0) return true;
  const rel = relativeInside(tracked.dir, subfolder);
  return rel !== undefined && rel !== '' && !tracked.walkedPaths.has(rel.split(path.sep).join('/'));
}
